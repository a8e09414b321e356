/**
 * `wsctx ask "<question>"`: the ranked passages with their why[] as a table a person can read.
 * `--json` prints the tool's own structured answer instead.
 */
import type { ContextOutput } from '../../tools/workspaceContext';
import { table } from '../format';

const SNIPPET_CHARS = 160;

export function renderAskTable(out: ContextOutput): string {
  const lines: string[] = [];
  if (out.notice) lines.push(out.notice, '');
  if (out.passages.length) {
    lines.push(
      table([
        ['#', 'score', 'passage', 'source', 'kind'],
        ...out.passages.map((p, i) => [
          String(i + 1),
          p.score.toFixed(3),
          [p.title, ...p.headingPath.filter((h) => h !== p.title)].join(' › '),
          `${p.sourceRef.path}:${p.sourceRef.startLine}-${p.sourceRef.endLine}`,
          p.sourceKind,
        ]),
      ], ''),
    );
  }
  out.passages.forEach((p, i) => {
    lines.push('', `${i + 1}. ${p.title} [${p.id}]${p.sourceCommit ? ` @ ${p.sourceCommit.slice(0, 12)}${p.dirty ? '+dirty' : ''}` : ''}`);
    lines.push(
      table(
        p.why.map((w) => [w.signal, w.weight.toFixed(2), w.raw.toFixed(3), w.contribution.toFixed(3), w.detail]),
        '     ',
      ),
    );
    lines.push(`     ${''.padEnd(11)}score ${p.score.toFixed(3)}`);
    const snippet = p.text.replace(/\s+/g, ' ').trim();
    lines.push(`     "${snippet.length > SNIPPET_CHARS ? `${snippet.slice(0, SNIPPET_CHARS)}…` : snippet}"`);
  });
  const meaning = out.meaning
    ? `meaning ${out.meaning.model}${out.meaning.sectionsWithoutVectors ? `, ${out.meaning.sectionsWithoutVectors} sections without vectors (run wsctx index to embed them)` : ''}`
    : 'embeddings off';
  lines.push('', `contract ${out.contractVersion} · ${out.candidates} candidates · ${meaning} · indexedAt ${out.indexedAt ?? 'never'}${out.degraded.length ? ` · degraded: ${out.degraded.join(', ')}` : ''}`);
  return lines.join('\n');
}
