import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Engine } from '../../../../server/src/engine/engine';
import { ModelConflictCheck, watchLibrarySoundness } from '../../../../server/src/library/models/conflictCheck';
import { factConflicts, flagsAsProblems, libraryFlags } from '../../../../server/src/library/view/conflicts';
import { sectionFacts } from '../../../../server/src/library/view/facts';
import { libraryView } from '../../../../server/src/library/view/libraryView';
import { OpenAiModelProvider } from '../../../../server/src/library/models/openAiProvider';
import { EXAMPLE_WORKSPACE, removeTempDirs, tempDir, write } from '../../../helpers/tempWorkspace';
import { startChatServer, type ChatServer } from '../models/chatServer';

const TODAY = '2026-06-01';

describe('keeping the library sound: conflicting numbers and dates, duplicated ground', function () {
  this.timeout(60_000);
  let engine: Engine;
  before(async () => {
    engine = new Engine({
      folders: [{ name: 'fernhill', absPath: EXAMPLE_WORKSPACE }],
      settings: { refreshAfterMs: 0 },
    });
    await engine.waitForIndex();
  });
  after(() => {
    engine.dispose();
    removeTempDirs();
  });

  it('flags the example\'s 30-day vs 14-day refund window and its near-duplicate "Idempotency keys" section, with both wordings', () => {
    const view = libraryView(engine.current()!, TODAY);
    const flags = libraryFlags(view);
    assert.deepEqual(
      flags.map((f) => [f.kind, f.by, f.what, f.places.map((p) => [p.path, p.heading, p.line, p.wording])]),
      [
        [
          'conflict',
          'numbers',
          '30 days vs 14 days',
          [
            [
              '.context/guides/issuing-refunds.md',
              'Refund window',
              23,
              'A captured charge can be refunded up to 30 days after capture, in full or in part, any number of times until the captured amount is used up.',
            ],
            [
              '.context/reference/refund-policy.md',
              'Refund window',
              21,
              'Merchants can refund a captured charge within 14 days of capture, in full or in part.',
            ],
          ],
        ],
        [
          'duplicate',
          'shingles',
          '"Idempotency keys" is nearly the same text in both pages',
          [
            [
              '.context/guides/calling-the-payments-gateway.md',
              'Idempotency keys',
              21,
              'Every POST to the payments gateway must carry an Idempotency-Key header of at most 64 characters.',
            ],
            [
              '.context/guides/issuing-refunds.md',
              'Idempotency keys',
              41,
              'Every POST to the payments gateway must carry an Idempotency-Key header of at most 64 characters.',
            ],
          ],
        ],
      ],
    );
    const lines = fs
      .readFileSync(path.join(EXAMPLE_WORKSPACE, '.context/guides/issuing-refunds.md'), 'utf8')
      .split('\n');
    assert.match(lines[22], /^A captured charge can be refunded up to \*\*30 days\*\*/);
  });

  it("turns each flag into a problem on both pages, worded with the other page's words", () => {
    const problems = flagsAsProblems(libraryFlags(libraryView(engine.current()!, TODAY)));
    assert.deepEqual(
      problems.map((p) => [p.path, p.line, p.severity, p.code]),
      [
        ['.context/guides/issuing-refunds.md', 23, 'warning', 'library.conflict'],
        ['.context/reference/refund-policy.md', 21, 'warning', 'library.conflict'],
        ['.context/guides/calling-the-payments-gateway.md', 21, 'info', 'library.duplicate'],
        ['.context/guides/issuing-refunds.md', 41, 'info', 'library.duplicate'],
      ],
    );
    assert.equal(
      problems[0].message,
      'This page says "A captured charge can be refunded up to 30 days after capture, in full or in part, any number of times until the captured amount is used up." but "Refund policy" says "Merchants can refund a captured charge within 14 days of capture, in full or in part." (30 days vs 14 days). An agent given both cannot know which to follow.',
    );
    assert.deepEqual(problems[1].related, [
      {
        path: '.context/guides/issuing-refunds.md',
        line: 23,
        message:
          '"Issuing refunds" › Refund window: A captured charge can be refunded up to 30 days after capture, in full or in part, any number of times until the captured amount is used up.',
      },
    ]);
  });

  it('reads quantities with their units, dates, and table rows with their header', () => {
    const dir = tempDir('facts');
    write(
      dir,
      '.context/a.md',
      '---\ntitle: A\n---\n\n# A\n\n## Limits\n\nKeys are remembered for 72 hours. Reviewed 2026-02-16.\n\n| Limit | Value |\n| --- | --- |\n| Webhook attempts | 16 attempts |\n\n```\nretry 5 times\n```\n',
    );
    const view = libraryViewOf(dir);
    return view.then(({ view: v, close }) => {
      const section = v.sections.find((s) => s.section.headingPath[1] === 'Limits')!;
      assert.deepEqual(
        sectionFacts(section.section, section.doc).map((f) => [f.unit, f.value, f.text, f.statement, f.line]),
        [
          ['hour', '72', '72 hours', 'Keys are remembered for 72 hours.', 9],
          ['date', '2026-02-16', '2026-02-16', 'Reviewed 2026-02-16.', 9],
          ['attempt', '16', '16 attempts', 'Limit: Webhook attempts; Value: 16 attempts', 13],
        ],
      );
      close();
    });
  });

  it('does not flag different numbers about different things', async () => {
    const dir = tempDir('noconflict');
    write(
      dir,
      '.context/a.md',
      '---\ntitle: Refunds\n---\n\n# Refunds\n\n## Window\n\nMerchants can refund a captured charge within 14 days of capture.\n',
    );
    write(
      dir,
      '.context/b.md',
      '---\ntitle: Disputes\n---\n\n# Disputes\n\n## Evidence\n\nThe merchant can respond to a chargeback with evidence within 7 days.\n',
    );
    write(
      dir,
      '.context/c.md',
      '---\ntitle: Refund guide\n---\n\n# Refund guide\n\n## Window\n\nA captured charge can be refunded by merchants within 14 days of capture.\n',
    );
    const { view, close } = await libraryViewOf(dir);
    assert.deepEqual(factConflicts(view), []);
    close();
  });

  describe('with a model (against a local chat completions server)', () => {
    let server: ChatServer;
    before(async () => {
      server = await startChatServer((request) => {
        const user = request.body.messages[1].content;
        if (user.includes('Never rename a column') && user.includes('Renaming a column is fine')) {
          // Passage A is the page first in path order (guides/schema.md); one made-up quote is dropped.
          return {
            content: JSON.stringify({
              conflicts: [
                {
                  a: 'Renaming a column is fine in the same release',
                  b: 'Never rename a column in the same release',
                  what: 'renaming columns',
                },
                { a: 'Columns may be dropped at once', b: 'Never rename a column', what: 'not in the text' },
              ],
            }),
          };
        }
        return { content: '{"conflicts": []}' };
      });
    });
    after(() => server.close());

    it('flags rules stated differently, quoting both pages, and only re-reads what changed', async () => {
      const dir = tempDir('rules');
      write(
        dir,
        '.context/rules/migrations.md',
        '---\ntitle: Migrations\ntype: rule\n---\n\n# Migrations\n\n## Renames\n\nNever rename a column in the same release as the code change that stops using it.\n',
      );
      write(
        dir,
        '.context/guides/schema.md',
        '---\ntitle: Schema changes\n---\n\n# Schema changes\n\n## Renames\n\nRenaming a column is fine in the same release as the code change, if the column is small.\n',
      );
      write(
        dir,
        '.context/guides/other.md',
        '---\ntitle: Other\n---\n\n# Other\n\n## Unrelated\n\nThe office opens at nine.\n',
      );
      const engine2 = new Engine({
        folders: [{ name: 'rules', absPath: dir }],
        settings: { refreshAfterMs: 0, updateDebounceMs: 10 },
      });
      try {
        const check = new ModelConflictCheck();
        const provider = new OpenAiModelProvider({ baseUrl: server.baseUrl, model: 'checker' });
        const logs: string[] = [];
        let done!: () => void;
        const finished = new Promise<void>((resolve) => (done = resolve));
        const stop = watchLibrarySoundness(engine2, check, () => provider, {
          now: () => new Date('2026-06-01T00:00:00Z'),
          log: (m) => {
            logs.push(m);
            done();
          },
        });
        await engine2.waitForIndex();
        await finished;
        stop();
        assert.deepEqual(logs, [
          '[library] conflict check of 3 changed page(s) with openai:checker: 1 call(s), 0 failed',
        ]);
        const view = libraryView(engine2.current()!, TODAY);
        const flags = libraryFlags(view, [check]);
        assert.deepEqual(
          flags.map((f) => [f.kind, f.by, f.what, f.places.map((p) => [p.path, p.line, p.wording])]),
          [
            [
              'conflict',
              'model',
              'renaming columns',
              [
                ['.context/guides/schema.md', 9, 'Renaming a column is fine in the same release'],
                ['.context/rules/migrations.md', 10, 'Never rename a column in the same release'],
              ],
            ],
          ],
        );
        // Nothing changed: nothing is asked again.
        const again = await check.check(view, provider);
        assert.equal(again.calls, 0);
        // An edited section makes its answer stale (its flag goes) until it is checked again.
        fs.writeFileSync(
          path.join(dir, '.context/guides/schema.md'),
          '---\ntitle: Schema changes\n---\n\n# Schema changes\n\n## Renames\n\nRenaming a column in the same release as the code change needs care: expand, then contract.\n',
        );
        const view2 = libraryView(await engine2.reindex(), TODAY);
        assert.deepEqual(
          libraryFlags(view2, [check]).filter((f) => f.by === 'model'),
          [],
        );
        const report = await check.check(view2, provider);
        assert.deepEqual(report, { calls: 1, failures: 0, provider: 'openai:checker' });
      } finally {
        engine2.dispose();
      }
    });
  });
});

async function libraryViewOf(dir: string) {
  const engine = new Engine({ folders: [{ name: 'x', absPath: dir }], settings: { refreshAfterMs: 0 } });
  const state = await engine.waitForIndex();
  return { view: libraryView(state, TODAY), close: () => engine.dispose() };
}
