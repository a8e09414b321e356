/** The "Local embedder" table of the bench: throughput, query latency, answers while embedding, first example run. */
import { latency } from './format';
import type { Maybe } from './measureMeaning';
import type { EmbeddingFigures } from './measureEmbedding';
import { table } from './format';

/** Row names, fixed so the smoke test and readers can find them. */
export const EMBEDDING_ROWS = {
  corpus: 'documentation sections embedded (windows; words median / p90)',
  realDocs: 'real documentation: Argo CD sections, whole (the model reads up to 256 word pieces)',
  query: 'query embedding on the query worker, p50 / p95',
  whileEmbedding: 'workspace_context while embedding in the background, p50 / p95',
  idle: 'workspace_context with embedding stopped, p50 / p95',
  firstExample: 'first `npm run example` (build, index + embed, expand), fresh cache',
} as const;

export function renderEmbedding(figures: Maybe<EmbeddingFigures> | undefined): string[] {
  const out = ['## Local embedder (MiniLM): throughput and answers while embedding', ''];
  if (!figures || 'skipped' in figures) {
    out.push(`skipped: ${figures && 'skipped' in figures ? figures.skipped : 'not run'}`, '');
    return out;
  }
  const f = figures;
  const rows: string[][] = [
    [
      EMBEDDING_ROWS.corpus,
      `${f.corpus.sections} (${f.corpus.windows}; ${f.corpus.medianWords} / ${f.corpus.p90Words} words)`,
    ],
  ];
  for (const t of f.throughput) {
    rows.push([
      `sections/s, ${t.label}`,
      `${t.sectionsPerSecond.toFixed(1)} (${t.seconds.toFixed(1)} s; ${t.sectionsPerCpuSecond.toFixed(1)} per CPU-second; ${t.runtime}; load ${t.load.toFixed(1)})`,
    ]);
  }
  if ('skipped' in f.realDocs) {
    rows.push([EMBEDDING_ROWS.realDocs, `skipped: ${f.realDocs.skipped}`]);
  } else {
    const r = f.realDocs;
    rows.push([
      EMBEDDING_ROWS.realDocs,
      `${r.sections} (${r.medianWords} words, ${r.medianPieces} word pieces read at the median; p90 ${r.p90Pieces} pieces)`,
    ]);
    for (const t of r.throughput) {
      rows.push([
        `sections/s, ${t.label}`,
        `${t.sectionsPerSecond.toFixed(1)} (${t.seconds.toFixed(1)} s; ${t.sectionsPerCpuSecond.toFixed(1)} per CPU-second; ${t.runtime}; load ${t.load.toFixed(1)})`,
      ]);
    }
  }
  rows.push([EMBEDDING_ROWS.query, latency(f.query, true)]);
  if ('skipped' in f.background) {
    rows.push(
      [EMBEDDING_ROWS.whileEmbedding, `skipped: ${f.background.skipped}`],
      [EMBEDDING_ROWS.idle, `skipped: ${f.background.skipped}`],
    );
  } else {
    const b = f.background;
    rows.push([
      `${EMBEDDING_ROWS.whileEmbedding}, ${b.sections.toLocaleString('en-US')} sections`,
      `${latency(b.whileEmbedding, true)}; the job ran throughout (${b.embeddedDuring} sections finished meanwhile)`,
    ]);
    rows.push([`${EMBEDDING_ROWS.idle}, ${b.sections.toLocaleString('en-US')} sections`, latency(b.idle, true)]);
  }
  rows.push([
    EMBEDDING_ROWS.firstExample,
    f.firstExample.exitCode === 0
      ? `${f.firstExample.seconds.toFixed(1)} s`
      : `failed (exit ${f.firstExample.exitCode})`,
  ]);
  out.push(
    `${f.cores} cores; one process, measured one configuration after another. Per CPU-second counts every thread of the process, so it is about what one core of its own would reach.`,
    '',
  );
  out.push(...table(['figure', 'value'], rows), '');
  return out;
}
