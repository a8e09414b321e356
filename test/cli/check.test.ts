/**
 * `wsctx check` and `wsctx why-not` on a copy of the example workspace: its expectations file
 * passes; a doc edited so that one expectation fails makes check exit 1 with that failure
 * explained; a bad expectations file is refused with its line and field.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { CheckReport } from '../../server/src/tools/expectationsCheck';
import type { ExplainOutput } from '../../server/src/tools/explainResult';
import { wsctx } from '../helpers/cli';
import { copyExampleWorkspace, removeTempDirs, tempDir, write } from '../helpers/tempWorkspace';

const RUNBOOK = 'payments-platform/services/billing-worker/docs/runbooks/deploy.md';

describe('wsctx check and wsctx why-not', () => {
  after(() => removeTempDirs());

  it("passes on the example workspace's expectations file", () => {
    const ws = copyExampleWorkspace();
    const run = wsctx(['check', '--workspace', ws, '--no-cache']);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /expectations\.yaml: 8 checks, 8 passed, 0 failed/);
    assert.match(
      run.stdout,
      /\n {2}ok +top 1 +rank 1 +payments-platform\/services\/billing-worker\/docs\/runbooks\/deploy\.md\n/,
    );
    const report = JSON.parse(wsctx(['check', '--workspace', ws, '--no-cache', '--json']).stdout) as CheckReport;
    assert.deepEqual(
      report.rows.map((r) => [r.page, r.kind, r.pass]),
      [
        [RUNBOOK, 'expect', true],
        ['platform-infra/docs/runbooks/rollback.md', 'expect', true],
        ['.context/reference/refund-policy.md', 'expect', true],
        ['.context/guides/issuing-refunds.md', 'expect', true],
        ['.context/reference/decline-codes.md', 'expect', true],
        ['platform-infra/docs/runbooks/rollback.md', 'exclude', true],
        ['component:default/checkout-web', 'expect', true],
        ['.context/templates/incident-postmortem.md', 'expect', true],
      ],
    );
  });

  it('fails, exit 1, when an edit pushes an expected page down, and explains it', () => {
    const ws = copyExampleWorkspace();
    // The runbook says "revert" where it said "roll back": the question no longer points at it.
    const file = path.join(ws, RUNBOOK);
    writeFileSync(
      file,
      readFileSync(file, 'utf8')
        .replace('Rolling back', 'Reverting a release')
        .replace(/[Rr]oll back|[Rr]ollback/g, 'revert'),
    );
    const run = wsctx(['check', '--workspace', ws, '--no-cache']);
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.match(run.stdout, /8 checks, 7 passed, 1 failed/);
    assert.match(run.stdout, new RegExp(`\\n {2}FAIL +top 1 +rank \\d+ +${RUNBOOK.replace(/[./]/g, '\\$&')}\\n`));
    assert.match(
      run.stdout,
      /expectations\.yaml:8: "how do I roll back billing-worker\?" expects payments-platform\/services\/billing-worker\/docs\/runbooks\/deploy\.md within 1/,
    );
    assert.match(run.stdout, /Fix: It holds roll back only weakly \(0\.\d\d, by its parts\)/);
    const report = JSON.parse(wsctx(['check', '--workspace', ws, '--no-cache', '--json']).stdout) as CheckReport;
    const failed = report.rows.filter((r) => !r.pass);
    assert.equal(failed.length, 1);
    const e = failed[0].explanation!;
    assert.equal(e.standing, 'ranked-below-limit');
    assert.ok(e.rank! > 1 && e.limitNeeded === e.rank, `${e.rank} ${e.limitNeeded}`);
    assert.deepEqual(e.missingTerms, []);
    // What put the passages above it: "roll back", held strongly there, by its parts only here.
    assert.match(e.above[0].termsHeldMoreStrongly.join(' '), /^roll back 0\.\d\d \(0\.\d\d there\)$/);
    // The cause is true: with the limit it names, the page comes, at that rank.
    const ask = JSON.parse(
      wsctx([
        'ask',
        'how do I roll back billing-worker?',
        '--workspace',
        ws,
        '--no-cache',
        '--json',
        '--limit',
        String(e.limitNeeded),
      ]).stdout,
    ) as { passages: { sourceRef: { path: string } }[] };
    assert.equal(ask.passages.findIndex((p) => p.sourceRef.path === RUNBOOK) + 1, e.rank);
  });

  it('a failed exclude is explained by what brought the page, never "Nothing to fix"', () => {
    const ws = copyExampleWorkspace();
    write(
      ws,
      '.wsctx/expectations.yaml',
      [
        'expectations:',
        '  - question: how do I roll back billing-worker?',
        '    limit: 5',
        '    exclude:',
        `      - ${RUNBOOK}`,
        '  - task: write a postmortem for the checkout outage',
        '    exclude:',
        '      - .context/templates/incident-postmortem.md',
        '',
      ].join('\n'),
    );
    const run = wsctx(['check', '--workspace', ws, '--no-cache']);
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.match(run.stdout, /2 checks, 0 passed, 2 failed/);
    assert.doesNotMatch(run.stdout, /Nothing to fix/);
    assert.match(
      run.stdout,
      /It comes at rank 1 of the first 5, which the expectation excludes, by its section "Rolling back" \(score \d\.\d{3}\)\./,
    );
    assert.match(run.stdout, /Fix: To keep it out of the first 5: the pages that should answer must rank above it/);
    assert.match(
      run.stdout,
      /It is in the bundle \(search\), and the expectation excludes it\.\n {2}Fix: To keep it out: /,
    );
    const report = JSON.parse(wsctx(['check', '--workspace', ws, '--no-cache', '--json']).stdout) as CheckReport;
    for (const row of report.rows) assert.notEqual(row.explanation?.fix, 'Nothing to fix.', row.page);
  });

  it('why-not asks at the limit ask answers with: a page past it is never "returned, nothing to fix"', () => {
    const ws = copyExampleWorkspace();
    write(ws, '.wsctx.yaml', 'budgets:\n  contextPassages: 3\n');
    const question = 'how do I roll back billing-worker?';
    const ask = JSON.parse(wsctx(['ask', question, '--workspace', ws, '--no-cache', '--json']).stdout) as {
      passages: { sourceRef: { path: string } }[];
    };
    assert.equal(ask.passages.length, 3, 'ask answers with budgets.contextPassages');
    const deeper = JSON.parse(
      wsctx(['ask', question, '--workspace', ws, '--no-cache', '--json', '--limit', '10']).stdout,
    ) as { passages: { sourceRef: { path: string } }[] };
    const shown = new Set(ask.passages.map((p) => p.sourceRef.path));
    const past = deeper.passages.map((p) => p.sourceRef.path).find((p) => !shown.has(p))!;
    const run = wsctx(['why-not', question, '--expect', past, '--workspace', ws, '--no-cache', '--json']);
    assert.equal(run.code, 0, run.stderr);
    const e = JSON.parse(run.stdout) as ExplainOutput;
    assert.equal(e.limit, 3);
    assert.notEqual(e.standing, 'returned');
    assert.notEqual(e.fix, 'Nothing to fix.');
  });

  it('a task whose read-whole page no longer fits its budget fails, with the cause get_context had', () => {
    const ws = copyExampleWorkspace();
    write(
      ws,
      '.wsctx/expectations.yaml',
      [
        'expectations:',
        '  - task: write a postmortem for the checkout outage',
        '    max_tokens: 1000',
        '    expect:',
        '      - .context/templates/incident-postmortem.md',
        '',
      ].join('\n'),
    );
    const run = wsctx(['check', '--workspace', ws, '--no-cache']);
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.match(
      run.stdout,
      /\ntask: write a postmortem for the checkout outage\n {2}FAIL +in bundle +did-not-fit \(budget\) +\.context\/templates\/incident-postmortem\.md\n/,
    );
    assert.match(
      run.stdout,
      /It is a page read whole, and it did not fit in what was left of the budget \(max_tokens 1000\)/,
    );
    // The cause is true: with the default budget the page comes.
    const context = JSON.parse(
      wsctx(['context', 'write a postmortem for the checkout outage', '--workspace', ws, '--no-cache', '--json'])
        .stdout,
    ) as { pages: { title: string }[] };
    assert.ok(
      context.pages.some((p) => p.title === 'Incident postmortem'),
      JSON.stringify(context.pages.map((p) => p.title)),
    );
    const tight = JSON.parse(
      wsctx([
        'context',
        'write a postmortem for the checkout outage',
        '--workspace',
        ws,
        '--no-cache',
        '--json',
        '--max-tokens',
        '1000',
      ]).stdout,
    ) as { pages: { title: string }[]; skipped: { title: string; why: string }[] };
    assert.ok(!tight.pages.some((p) => p.title === 'Incident postmortem'));
  });

  it('refuses a bad expectations file naming its line and field, exit 1', () => {
    const ws = copyExampleWorkspace();
    write(
      ws,
      '.wsctx/expectations.yaml',
      [
        'expectations:',
        '  - question: how do I roll back billing-worker?',
        '    expect:',
        '      - page: docs/x.md',
        '        within: 0',
        '  - question: who owns checkout-web?',
        '    expects: [component:default/checkout-web]',
        '',
      ].join('\n'),
    );
    const run = wsctx(['check', '--workspace', ws, '--no-cache']);
    assert.equal(run.code, 1);
    assert.match(
      run.stdout,
      /expectations\.yaml:5: expectations\[0\]\.expect\[0\]\.within: expected a whole number from 1 to 50/,
    );
    assert.match(
      run.stdout,
      /expectations\.yaml:7: expectations\[1\]\.expects: unknown key; an expectation holds question, task, limit, max_tokens, expect, exclude/,
    );
    write(ws, '.wsctx/expectations.yaml', 'expectations:\n  - question: [unclosed\n');
    const broken = wsctx(['check', '--workspace', ws, '--no-cache']);
    assert.equal(broken.code, 1);
    assert.match(broken.stdout, /expectations\.yaml:\d+: YAML error/);
    const missing = wsctx(['check', path.join(ws, 'nowhere.yaml'), '--workspace', ws, '--no-cache']);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /no expectations file at .*nowhere\.yaml/);
  });

  it('why-not: a file no source glob reads, with the fix; --expect is required', () => {
    const ws = copyExampleWorkspace();
    write(ws, 'platform-infra/scratch/rollback-ideas.txt', 'How to roll back billing-worker faster.\n');
    const run = wsctx([
      'why-not',
      'how do I roll back billing-worker?',
      '--expect',
      'platform-infra/scratch/rollback-ideas.txt',
      '--workspace',
      ws,
      '--no-cache',
      '--json',
    ]);
    assert.equal(run.code, 0, run.stderr);
    const e = JSON.parse(run.stdout) as ExplainOutput;
    assert.equal(e.standing, 'not-indexed');
    assert.equal(e.reason, 'no-source-glob');
    assert.match(e.fix, /add a glob for it under sources in \.wsctx\.yaml/);
    const text = wsctx([
      'why-not',
      'how do I roll back billing-worker?',
      '--expect',
      RUNBOOK,
      '--workspace',
      ws,
      '--no-cache',
    ]);
    assert.match(
      text.stdout,
      /^payments-platform\/services\/billing-worker\/docs\/runbooks\/deploy\.md: returned, rank 1 for "how do I roll back billing-worker\?" \(limit 10\)\n/,
    );
    const refused = wsctx(['why-not', 'how do I roll back billing-worker?', '--workspace', ws]);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /why-not needs --expect PAGE/);
  });

  it("why-not refuses a get_context flag without --task, and ask's flags with it, naming them", () => {
    const question = [
      'why-not',
      'how do I roll back billing-worker?',
      '--expect',
      RUNBOOK,
      '--workspace',
      'examples/fernhill',
    ];
    const contextFlag = wsctx([...question, '--max-tokens', '3000']);
    assert.equal(contextFlag.code, 1);
    assert.equal(
      contextFlag.stderr,
      "wsctx: --max-tokens, --pack, --tags and --folder are context's: add --task to explain a get_context task\n",
    );
    const askFlag = wsctx([...question, '--task', '--limit', '3']);
    assert.equal(askFlag.code, 1);
    assert.equal(
      askFlag.stderr,
      "wsctx: --limit and --source-kinds are ask's: with --task give context's --max-tokens, --pack, --tags, --folder\n",
    );
  });

  describe('a hostile expectations file is read through the read guard', () => {
    const FILE = '.wsctx/expectations.yaml';
    const SMALL = (ws: string) => {
      write(
        ws,
        'catalog-info.yaml',
        'apiVersion: backstage.io/v1alpha1\nkind: Component\nmetadata:\n  name: billing-worker\nspec:\n  type: service\n  owner: payments\n  lifecycle: production\n',
      );
      return ws;
    };

    it('refuses a FIFO in its place at once, naming it (before, wsctx check waited on it forever)', () => {
      const ws = SMALL(tempDir('check-fifo'));
      write(ws, '.wsctx/keep', '');
      execFileSync('mkfifo', [path.join(ws, FILE)]);
      const run = wsctx(['check', '--workspace', ws, '--no-cache'], { timeoutMs: 60_000 });
      assert.equal(run.code, 1, run.stdout + run.stderr);
      assert.equal(
        run.stderr,
        `wsctx: ${path.join(ws, FILE)}:1: could not be read: a FIFO (named pipe), not a regular file; nothing is checked\n`,
      );
    });

    it('refuses a link to a file outside the served folders, and prints nothing of it', () => {
      const ws = SMALL(tempDir('check-link'));
      const outside = tempDir('check-outside');
      write(
        outside,
        'questions.yaml',
        'expectations:\n  - question: what are the payroll secrets of the outside folder?\n    expect: [billing-worker]\n',
      );
      write(ws, '.wsctx/keep', '');
      symlinkSync(path.join(outside, 'questions.yaml'), path.join(ws, FILE));
      const run = wsctx(['check', '--workspace', ws, '--no-cache']);
      assert.equal(run.code, 1, run.stdout + run.stderr);
      assert.equal(run.stdout, '');
      assert.equal(
        run.stderr,
        `wsctx: ${path.join(ws, FILE)}:1: could not be read: its real path (${path.join(outside, 'questions.yaml')}) is outside the served folders; not read; nothing is checked\n`,
      );
      // A file the user names outside the folders is theirs to check (its own folder is its bound).
      const named = wsctx(['check', path.join(outside, 'questions.yaml'), '--workspace', ws, '--no-cache', '--json']);
      assert.deepEqual(
        (JSON.parse(named.stdout) as CheckReport).rows.map((r) => r.question),
        ['what are the payroll secrets of the outside folder?'],
      );
    });

    it('refuses a 400 MB file by its size without reading it, and checks the first 200 of 3,000 questions', () => {
      const ws = SMALL(tempDir('check-size'));
      const file = write(ws, FILE, 'expectations: []\n');
      truncateSync(file, 400 * 1024 * 1024);
      const huge = wsctx(['check', '--workspace', ws, '--no-cache']);
      assert.equal(huge.code, 1);
      assert.equal(
        huge.stderr,
        `wsctx: ${file}:1: could not be read: it holds more than 1,048,576 bytes, the most an expectations file may hold; not read; nothing is checked\n`,
      );
      rmSync(file);
      const entries = Array.from(
        { length: 3000 },
        (_, i) => `  - question: who owns billing-worker, ask ${i}?\n    expect: [component:default/billing-worker]\n`,
      );
      write(ws, FILE, `expectations:\n${entries.join('')}`);
      const many = wsctx(['check', '--workspace', ws, '--no-cache', '--json']);
      assert.equal(many.code, 1, many.stderr);
      const report = JSON.parse(many.stdout) as CheckReport;
      assert.equal(report.rows.length, 200);
      assert.deepEqual(report.problems, [
        {
          path: file,
          line: 2 + 200 * 2,
          field: 'expectations[200]',
          message:
            'a file may hold at most 200 questions and tasks; this one and the 2799 after it (2800 in all) are not checked',
        },
      ]);
    });
  });
});
