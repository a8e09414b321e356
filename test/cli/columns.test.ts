/**
 * Every command's text fits `$COLUMNS` (docs/cli.md): at 80 and at 120 columns no line of `ask`,
 * `why-not`, `check`, `expand`, `graph`, `toc`'s map, `try`, `diagnostics`, `index` or `doctor`
 * passes the width, except a line that is one word (a `file:` link, a long path: never cut). And
 * nothing is cut to fit: `expand` prints every declaration path whole, `ask` every path and heading.
 * The workspace's own text (`page`, `section`, `file`, `search`, `context`, the pinned documents)
 * is printed as written and not checked here.
 */
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { wsctx } from '../helpers/cli';
import { copyExampleWorkspace, removeTempDirs, write } from '../helpers/tempWorkspace';

const ARGOCD = path.resolve(__dirname, '../fixtures/argocd-docs');

/**
 * Lines of `text` wider than `columns`, less those that run past only by a last word too long for
 * any line (a link, a path: never cut, so it runs past the edge).
 */
function tooWide(text: string, columns: number): string[] {
  return text.split('\n').filter((line) => {
    if (line.length <= columns) return false;
    const words = line.trim().split(/\s+/);
    if (words.length === 1) return false;
    const last = words.at(-1)!;
    const indent = line.length - line.trimStart().length;
    return line.length - last.length > columns || indent + 2 + last.length <= columns;
  });
}

describe('text output fits $COLUMNS (80 and 120), and nothing is cut to fit', function () {
  this.timeout(300_000);
  let ws: string;
  before(() => {
    ws = copyExampleWorkspace();
    // A failing expectation too, so check prints an explanation.
    write(
      ws,
      '.wsctx/expectations.yaml',
      [
        'expectations:',
        '  - question: how do I roll back billing-worker?',
        '    expect:',
        '      - { page: platform-infra/docs/runbooks/rollback.md, within: 1 }',
        '    exclude:',
        '      - payments-platform/services/billing-worker/docs/runbooks/deploy.md',
        '',
      ].join('\n'),
    );
    assert.equal(wsctx(['index', '--workspace', ws]).code, 0);
  });
  after(() => removeTempDirs());

  const commands: [string, () => string[]][] = [
    ['ask', () => ['ask', 'how do I roll back billing-worker?', '--workspace', ws]],
    ['ask --why', () => ['ask', 'how do I roll back billing-worker?', '--workspace', ws, '--why']],
    [
      'why-not',
      () => [
        'why-not',
        'how do I roll back billing-worker?',
        '--expect',
        'platform-infra/docs/runbooks/rollback.md',
        '--limit',
        '1',
        '--workspace',
        ws,
      ],
    ],
    [
      'why-not (a buried fact)',
      () => [
        'why-not',
        'which port does the API server listen on',
        '--expect',
        'docs/operator-manual/server-commands/argocd-server.md',
        '--limit',
        '3',
        '--workspace',
        ARGOCD,
      ],
    ],
    ['check', () => ['check', '--workspace', ws]],
    ['expand', () => ['expand', 'component:billing-worker', '--depth', '2', '--direction', 'out', '--workspace', ws]],
    ['graph', () => ['graph', '--workspace', ws]],
    ['try', () => ['try', 'issue a partial refund', '--workspace', ws]],
    ['diagnostics', () => ['diagnostics', '--workspace', ws]],
    ['index', () => ['index', '--workspace', ws]],
    ['index (Argo CD, with problems)', () => ['index', '--workspace', ARGOCD]],
    ['doctor', () => ['doctor', '--workspace', ws]],
  ];
  for (const columns of [80, 120]) {
    for (const [name, args] of commands) {
      it(`${name} at ${columns} columns`, () => {
        const run = wsctx(args(), { env: { COLUMNS: String(columns) } });
        assert.ok(run.code === 0 || (name === 'check' && run.code === 1), `${run.code}: ${run.stderr}`);
        assert.ok(run.stdout.length > 0);
        assert.deepEqual(tooWide(run.stdout, columns), [], `${name}: lines past ${columns} columns`);
      });
    }
    it(`toc's map and a document's sections at ${columns} columns (the pinned documents are the workspace's own text)`, () => {
      for (const args of [[], ['--document', '9cce21de']]) {
        const run = wsctx(['toc', ...args, '--workspace', ws], { env: { COLUMNS: String(columns) } });
        assert.equal(run.code, 0, run.stderr);
        const map = run.stdout.slice(run.stdout.search(/\n# (Library map|Issuing refunds)/));
        assert.ok(map.length > 100, run.stdout);
        assert.deepEqual(tooWide(map, columns), []);
        for (const heading of run.stdout.split('\n').filter((l) => l.startsWith('=== ')))
          assert.ok(heading.length <= columns, heading);
        // A pinned heading too long for the line breaks before its id and file, never leaving its
        // closing `===` alone on a line.
        assert.doesNotMatch(run.stdout, /\n *===\n/);
        const heading =
          '=== Finding a merchant account id  [doc 4cde604e · .context/guides/finding-a-merchant-account-id.md] ===';
        assert.ok(
          run.stdout.includes(
            heading.length <= columns ? `\n${heading}\n` : `\n${heading.replace('  [doc', '\n  [doc')}\n`,
          ),
          run.stdout.slice(0, 300),
        );
      }
    });
  }

  it('expand prints every declaration path whole, at any width', () => {
    const args = ['expand', 'component:billing-worker', '--depth', '2', '--direction', 'out', '--workspace', ws];
    const edges = (JSON.parse(wsctx([...args, '--json']).stdout) as { edges: { declaredAt: string }[] }).edges;
    assert.ok(edges.length >= 10);
    for (const columns of [60, 80, 100, 120, 200]) {
      const text = wsctx(args, { env: { COLUMNS: String(columns) } }).stdout;
      assert.doesNotMatch(text, /…/, `${columns} columns`);
      for (const edge of edges) assert.ok(text.includes(edge.declaredAt), `${columns}: ${edge.declaredAt}`);
    }
  });
});
