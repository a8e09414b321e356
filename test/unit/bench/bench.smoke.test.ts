/**
 * The bench and the eval run end to end in their quickest modes and report every figure. Nothing
 * here looks at how fast anything was: only that each row is printed and each number is there.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { BASELINES } from '../../../bench/baselines/engines';
import { abstractMarkdown, loadScifact } from '../../../bench/evalScifact';
import { measured } from '../../../bench/measureMeaning';
import { ENGINE_K } from '../../../bench/measureVectors';
import { CHANGE_FIGURE } from '../../../bench/measure';
import type { BenchResult } from '../../../bench/report';
import { ourSystemLabel } from '../../../bench/evalEngine';
import { loadCases } from '../../../bench/evalFernhill';
import type { EvalResult } from '../../../bench/eval';
import { TOOLS } from '../../../server/src/tools/registry';

const REPO_ROOT = path.resolve(__dirname, '../../..');

/** Row names of the bench's engine table, written out here so a dropped row fails the test. */
const ENGINE_ROWS = [
  'sections indexed (documents, files)',
  'entities / relations',
  'workspace files / MB',
  'cold index, lexical: median ms (runs)',
  'cold index, first run in process ms',
  'sections per second',
  'update one docs page: p50 / p95 ms (edits)',
  'update one catalog file: p50 / p95 ms (edits)',
  'first workspace_context after a docs page edit: p50 / p95 ms (calls)',
  'first get_context after a docs page edit: p50 / p95 ms (calls)',
  'snapshot (lexical): MB, save ms',
  'snapshot load, a restart (new process): median ms (runs)',
  'warm start, a restart (new process): snapshot + check pass, median ms',
  'snapshot load / warm start in the process that indexed cold, its engine alive: median ms',
  'postings match only: p50 / p95 ms',
  "RSS after GC in the bench's process (tsx, after every cold index run), MB",
  'RSS of a process that indexed once (bundled engine): after GC / once idle, MB (idle s)',
  'engine heap after GC, MB',
  'engine typed arrays, MB',
  'bytes per section (heap + typed arrays)',
  'postings byteSize(): MB (bytes/section)',
];

/** Rows of the embeddings-on table; the first three need the model, which --quick never runs. */
const MEANING_ROWS = [
  'section vectors: windows (sections), from',
  'cold index with embeddings, nothing cached: lexical + embedding ms',
  'embedding rate: windows/s (sections/s, workers)',
  'cold index with embeddings, every vector cached: pass + attach ms (embedded)',
  'query embedding (embedQuery): p50 / p95 ms',
  `nearest by meaning (meaningSource, k = ${ENGINE_K}): p50 / p95 ms`,
  'rankWorkspaceContext with meaning: p50 / p95 ms',
  'ranking with embeddings on, query embedding excluded: p50 / p95 ms',
  'same ranking with embeddings off: p50 / p95 ms',
  'same ranking, every cosine a constant (no vector reads): p50 / p95 ms',
  'cosines per question: median (p95); their ms p50 / p95',
  'candidates per question: median (p95)',
  'ranking excl. query embedding, held-out pool vectors as questions: p50 / p95 ms (cosines)',
  'query workspace_context with embeddings on (whole call): p50 / p95 ms',
  'snapshot with vectors: snapshot + vector index MB (vector cache MB), save ms',
  'snapshot load with vectors, to meaning usable: median ms (runs)',
  'RSS after GC with vectors, model not loaded: MB',
  'RSS after GC with vectors and the model loaded: MB',
  'engine heap / typed arrays with vectors: MB',
];
/** Rows that need the model: in --quick each cell says why it was skipped. */
const MODEL_ROWS = [
  'cold index with embeddings, nothing cached: lexical + embedding ms',
  'embedding rate: windows/s (sections/s, workers)',
  'query embedding (embedQuery): p50 / p95 ms',
  'query workspace_context with embeddings on (whole call): p50 / p95 ms',
  'RSS after GC with vectors and the model loaded: MB',
];
const GRAPH_ROWS = (name: string) => [
  `${name} build, vector by vector (M, efConstruction): ms (CPU ms)`,
  `${name} index: file MB, RSS growth MB`,
  `${name} save / load: ms`,
  `${name} recall@10, efSearch 64 (default): recall, p50 / p95 ms`,
  `${name} recall@10, efSearch 10: recall, p50 / p95 ms`,
  `${name} as the engine asks (k = ${ENGINE_K}): recall@${ENGINE_K}, p50 / p95 ms`,
];
const VECTOR_ROWS = [
  'vectors x dimension (queries)',
  ...GRAPH_ROWS('HNSW'),
  ...GRAPH_ROWS('hnswlib-node'),
  'exact scan: build ms, MB',
  `exact scan: k = 10 p50 / p95 ms; k = ${ENGINE_K} p50 / p95 ms`,
];

function meaningOf(result: BenchResult, name: string) {
  return result.workspaces.find((w) => w.figures.name === name)?.meaning;
}

function run(script: string, args: string[]): string {
  const child = spawnSync(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    maxBuffer: 64 * 2 ** 20,
  });
  assert.equal(child.status, 0, `${script} failed:\n${child.stderr}`);
  return child.stdout;
}

const finite = (x: unknown, what: string) => assert.ok(typeof x === 'number' && Number.isFinite(x), `${what} is ${x}`);

describe('bench and eval, smoke', function () {
  this.timeout(300_000);
  let scratch: string;
  before(() => {
    scratch = mkdtempSync(path.join(os.tmpdir(), 'wsctx-bench-smoke-'));
  });
  after(() => rmSync(scratch, { recursive: true, force: true }));

  it('npm run bench -- --quick --runs 1 prints every row and writes every figure', () => {
    const out = path.join(scratch, 'bench.json');
    const stdout = run('bench/bench.ts', ['--quick', '--runs', '1', '--out', out]);
    const rowNames = stdout
      .split('\n')
      .filter((l) => l.startsWith('| '))
      .map((l) => l.split(' | ')[0].slice(2));

    assert.match(stdout, /^\| figure \| fernhill \| 1k \|$/m);
    for (const row of ENGINE_ROWS) assert.ok(rowNames.includes(row), `row "${row}" missing`);
    for (const tool of TOOLS) {
      const name =
        tool.name === 'workspace_expand'
          ? 'query workspace_expand (depth 3): p50 / p95 ms'
          : `query ${tool.name}: p50 / p95 ms`;
      const line = stdout.split('\n').find((l) => l.startsWith(`| ${name} |`));
      assert.ok(line, `row for tool ${tool.name} missing`);
      assert.doesNotMatch(line, /skipped/, `tool ${tool.name} was not timed: ${line}`);
    }
    for (const ws of ['fernhill', '1k'])
      assert.match(stdout, new RegExp(`^### ${ws}: [\\d,]+ sections, 50 queries`, 'm'));
    for (const b of BASELINES)
      assert.equal(rowNames.filter((r) => r === b.label).length, 2, `baseline ${b.label} once per workspace`);
    assert.equal(rowNames.filter((r) => r.startsWith('ours (')).length, 2);
    const cells = (row: string) =>
      stdout
        .split('\n')
        .find((l) => l.startsWith(`| ${row} |`))
        ?.split(' | ')
        .slice(1);
    for (const row of MEANING_ROWS) {
      const line = cells(row);
      assert.equal(line?.length, 2, `embeddings-on row "${row}" missing or not one cell per workspace`);
      if (MODEL_ROWS.includes(row)) for (const cell of line!) assert.match(cell, /^skipped in --quick: /, row);
      else for (const cell of line!) assert.match(cell, /\d/, `${row}: ${cell}`);
    }
    // The idle wait (up to 45 s a workspace) is left out of --quick, and the cell says so.
    for (const cell of cells(
      'RSS of a process that indexed once (bundled engine): after GC / once idle, MB (idle s)',
    ) ?? ['missing'])
      assert.equal(cell.replace(/ \|$/, ''), 'skipped in --quick (it waits up to 45 s for the process to sit idle)');
    assert.match(stdout, /^\| figure \| 1k \|$/m, 'the vector index table has one column, 1k');
    for (const row of VECTOR_ROWS) assert.match(cells(row)?.[0] ?? '', /\d/, `vector index row "${row}"`);
    assert.doesNotMatch(stdout, /not measured yet/);

    const result = JSON.parse(readFileSync(out, 'utf8')) as BenchResult;
    assert.equal(result.environment.cores, os.cpus().length);
    assert.equal(result.environment.node, process.version);
    assert.equal(
      result.environment.commit,
      execFileSync('git', ['rev-parse', 'HEAD'], { cwd: REPO_ROOT, encoding: 'utf8' }).trim(),
    );
    assert.ok(
      stdout.includes(`commit ${result.environment.commit.slice(0, 12)}`) &&
        stdout.includes(`${result.environment.cores} cores`) &&
        stdout.includes(`Node ${process.version}`),
    );
    // Every tool, then get_context given a change (issue 43), timed as a tool of its own.
    assert.deepEqual(result.tools, [...TOOLS.map((t) => t.name), CHANGE_FIGURE]);
    assert.deepEqual(
      result.workspaces.map((w) => w.figures.name),
      ['fernhill', '1k'],
    );
    for (const { figures: f, generated } of result.workspaces) {
      const at = (what: string) => `${f.name}: ${what}`;
      assert.ok(f.counts.sections > 0 && f.counts.entities > 0, at('counts'));
      if (generated)
        assert.equal(f.counts.sections, generated.predictedSections, at('sections indexed = sections generated'));
      for (const [what, x] of Object.entries({
        'cold median': f.coldIndex.runs.median,
        'cold first': f.coldIndex.firstRunMs,
        'sections/s': f.coldIndex.sectionsPerSecond,
        'update docs p50': f.update.docsPage.median,
        'update docs p95': f.update.docsPage.p95,
        'update catalog p50': f.update.catalogFile.median,
        'update catalog p95': f.update.catalogFile.p95,
        'first workspace_context after an edit': f.update.firstAnswer.workspace_context?.median,
        'first get_context after an edit': f.update.firstAnswer.get_context?.median,
        'snapshot bytes': f.snapshot.bytes,
        'snapshot save': f.snapshot.saveMs,
        'snapshot load': f.snapshot.load.median,
        'warm start': f.snapshot.warmStart.median,
        'match p50': f.postingsMatch.median,
        'match p95': f.postingsMatch.p95,
        rss: f.memory.after.rss,
        heap: f.memory.heapBytes,
        'array buffers': f.memory.arrayBufferBytes,
        'bytes/section': f.memory.bytesPerSection,
        'postings byteSize': f.memory.postingsByteSize,
      })) {
        finite(x, at(what));
      }
      assert.ok(f.memory.after.gcExposed, at('the measuring process runs with --expose-gc'));
      assert.ok(f.snapshot.bytes > 0 && f.memory.postingsByteSize > 0 && f.coldIndex.runs.n >= 1, at('sizes and runs'));
      for (const tool of TOOLS) {
        const t = f.tools[tool.name];
        finite(t?.latency?.median, at(`${tool.name} p50`));
        finite(t?.latency?.p95, at(`${tool.name} p95`));
      }
      assert.deepEqual(Object.keys(f.baselines).sort(), BASELINES.map((b) => b.key).sort());
      for (const [key, b] of Object.entries(f.baselines)) {
        finite(b.buildMs.median, at(`${key} build`));
        finite(b.query.median, at(`${key} p50`));
        finite(b.query.p95, at(`${key} p95`));
        finite(b.heapBytes, at(`${key} heap`));
        assert.equal(b.query.n, 50, at(`${key} answered every query`));
      }

      const m = measured(meaningOf(result, f.name));
      assert.ok(m, at('embeddings-on figures measured'));
      assert.equal(m.prepare.mode, 'standin', at('--quick runs no model'));
      assert.equal(m.prepare.standin?.source, 'synthetic');
      assert.equal(m.prepare.sections, f.counts.sections, at('a vector for every section'));
      assert.ok(m.prepare.distinctWindows >= m.prepare.sections, at('at least one window per section'));
      assert.equal(m.withCache.embedded, 0, at('the engine embedded nothing: every vector came from the cache'));
      assert.equal(m.backend, 'hnsw');
      assert.equal(m.query.count, 50);
      for (const [what, x] of Object.entries({
        'with cache total': m.withCache.totalMs,
        'with cache pass': m.withCache.passMs,
        'nearest p50': m.query.nearest.median,
        'rank p95': m.query.rank.p95,
        'total p50': m.query.total.median,
        'total p95': m.query.total.p95,
        'words only p95': m.query.wordsOnly.p95,
        'no cosine p95': m.query.noCosine.p95,
        'held-out questions p95': measured(m.query.heldOutQuestions)?.total.p95,
        'held-out questions cosines': measured(m.query.heldOutQuestions)?.cosines.median,
        'cosines p50': m.query.cosines.median,
        'cosine ms p95': m.query.cosineMs.p95,
        'candidates p50': m.query.candidates.median,
        'snapshot save': m.snapshot.saveMs,
        'snapshot load': m.snapshot.load.median,
        'rss no model': m.memory.noModel.rss,
        'heap with vectors': m.memory.heapBytes,
      })) {
        finite(x, at(what));
      }
      assert.ok(
        m.snapshot.bytes > 0 && m.snapshot.vectorIndexBytes > 0 && m.snapshot.vectorCacheBytes > 0,
        at('snapshot files'),
      );
      assert.ok(m.snapshot.savedIndexUsed, at('the restored engine used the saved vector index'));
      assert.equal(m.prepare.coldEmbed, undefined, at('no cold embed in --quick'));
      for (const figure of [m.query.embedQuery, m.query.tool, m.memory.withModel]) {
        assert.match(
          'skipped' in figure ? figure.skipped : '',
          /^skipped in --quick: /,
          at('figures that need the model say why they are missing'),
        );
      }
    }

    assert.deepEqual(
      result.vectorIndex.map((v) => [v.size, v.vectors, v.queries]),
      [['1k', 1000, 50]],
    );
    const v = result.vectorIndex[0];
    assert.deepEqual(
      v.hnsw.searches.map((s) => [s.efSearch, s.k]),
      [
        [64, 10],
        [10, 10],
        [ENGINE_K, ENGINE_K],
      ],
    );
    for (const s of v.hnsw.searches) {
      assert.ok(s.recall >= 0 && s.recall <= 1, `recall ${s.recall}`);
      finite(s.latency.p95, `HNSW ef ${s.efSearch} p95`);
      assert.equal(s.latency.n, 50);
    }
    assert.ok(!('skipped' in v.hnswlib), 'hnswlib-node measured beside the built-in graph');
    const hnswlib = v.hnswlib as Exclude<typeof v.hnswlib, { skipped: string }>;
    assert.deepEqual([v.hnsw.backend, hnswlib.backend], ['hnsw', 'hnswlib']);
    assert.deepEqual(
      hnswlib.searches.map((s) => [s.efSearch, s.k]),
      [
        [64, 10],
        [10, 10],
        [ENGINE_K, ENGINE_K],
      ],
    );
    for (const g of [v.hnsw, hnswlib])
      for (const x of [g.buildMs, g.buildCpuMs, g.fileBytes, g.saveMs, g.loadMs, g.rssBytes])
        finite(x, `${g.backend} figure`);
    for (const x of [v.exact.buildMs, v.exact.bytes, v.exact.latency.p95, v.exact.engineK.p95])
      finite(x, 'vector index figure');
    // The built-in graph's file holds the int8 vectors and the links; hnswlib's a float32 copy besides.
    assert.ok(v.hnsw.fileBytes > 1000 * 384, 'the graph file holds every vector');
    assert.ok(hnswlib.fileBytes > 1000 * 384 * 4, 'the hnswlib file holds every vector');
  });

  it('npm run eval -- --dataset fernhill prints the metrics, the splits and the failing cases', () => {
    const out = path.join(scratch, 'eval.json');
    const stdout = run('bench/eval.ts', ['--dataset', 'fernhill', '--out', out]);
    const cases = loadCases(path.join(REPO_ROOT, 'examples', 'fernhill-cases.yaml'));
    const count = (pick: (c: (typeof cases)[number]) => string, value: string) =>
      cases.filter((c) => pick(c) === value).length;
    const result = JSON.parse(readFileSync(out, 'utf8')) as EvalResult;
    assert.equal(result.scifact, undefined);
    assert.equal(result.embeddings, 'off');
    const fh = result.fernhill!;
    assert.equal(fh.cases, cases.length);
    assert.equal(fh.meaning, undefined, 'words only: nothing embedded');
    const systems = fh.systems.map((s) => s.system);
    assert.deepEqual(systems, [
      ...(TOOLS.some((t) => t.name === 'workspace_context') ? [ourSystemLabel('off')] : []),
      ...BASELINES.map((b) => b.label),
    ]);
    for (const s of fh.systems) {
      assert.equal(s.cases.length, cases.length);
      assert.equal(s.overall.queries, cases.length);
      for (const m of [s.overall.ndcg10, s.overall.recall5, s.overall.recall10, s.overall.mrr10])
        assert.ok(m >= 0 && m <= 1);
      assert.deepEqual(Object.keys(s.byKind).sort(), ['meaning', 'words']);
      assert.deepEqual(Object.keys(s.bySourceKind).sort(), [
        'catalog_doc',
        'catalog_entity',
        'epic_doc',
        'library',
        'repo_overview',
      ]);
      assert.equal(s.overall.passed, s.cases.filter((c) => c.passed).length);
      assert.ok(stdout.includes(`| ${s.system} | ${s.overall.ndcg10.toFixed(3)} |`), `overall row of ${s.system}`);
    }
    for (const kind of ['meaning', 'words'])
      assert.ok(stdout.includes(`| kind ${kind} (${count((c) => c.kind, kind)}) |`), kind);
    for (const source of ['catalog_doc', 'library'])
      assert.ok(stdout.includes(`| source ${source} (${count((c) => c.sourceKind, source)}) |`), source);
    const failing = fh.systems[0].cases.filter((c) => !c.passed);
    assert.ok(stdout.includes(`Failing cases for ${fh.systems[0].system} (${failing.length})`));
    for (const c of failing)
      assert.match(
        stdout,
        new RegExp(
          `^\\| ${c.id} \\| ${c.kind} \\| ${c.sourceKind} \\| ${c.within} \\| ${c.rank === null ? '> 20' : c.rank} \\|`,
          'm',
        ),
      );
  });

  it('reads SciFact in its BEIR layout and writes each abstract as one section', () => {
    const dir = path.join(scratch, 'scifact');
    mkdirSync(path.join(dir, 'qrels'), { recursive: true });
    writeFileSync(
      path.join(dir, 'corpus.jsonl'),
      [
        '{"_id": "10", "title": "Alpha", "text": "first\\nline"}',
        '{"_id": "11", "title": "Beta", "text": "# not a heading"}',
        '',
      ].join('\n'),
    );
    writeFileSync(
      path.join(dir, 'queries.jsonl'),
      ['{"_id": "1", "text": "alpha?"}', '{"_id": "2", "text": "unjudged"}'].join('\n'),
    );
    writeFileSync(path.join(dir, 'qrels', 'test.tsv'), 'query-id\tcorpus-id\tscore\r\n1\t10\t1\r\n');
    const corpus = loadScifact(dir);
    assert.deepEqual(corpus.docs, [
      { id: '10', title: 'Alpha', text: 'first\nline' },
      { id: '11', title: 'Beta', text: '# not a heading' },
    ]);
    assert.deepEqual(corpus.queries, [{ id: '1', text: 'alpha?' }]);
    assert.deepEqual([...corpus.qrels.get('1')!], [['10', 1]]);
    assert.equal(abstractMarkdown('Alpha', 'first\nline'), '# Alpha\n\nfirst line\n');
    assert.equal(abstractMarkdown('Beta', '# not a heading'), '# Beta\n\n\\# not a heading\n');
  });
});
