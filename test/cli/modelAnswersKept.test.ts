/**
 * The background model work's answers survive the process: `wsctx` runs against a local
 * OpenAI-compatible chat server (the provider tests' own), and a second run over unchanged pages
 * asks it nothing (enrichment, inferred links and the conflict check are all kept by content
 * digest in the cache folder); an edited page is asked about again, and only it.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  judgeItemIds,
  startChatServer,
  type ChatRequestRecord,
  type ChatServer,
} from '../unit/library/models/chatServer';
import { wsctxAsync } from '../helpers/cli';
import { removeTempDirs, tempDir, write } from '../helpers/tempWorkspace';

type Kind = 'card' | 'questions' | 'judge' | 'conflicts' | 'other';

function kindOf(request: ChatRequestRecord): Kind {
  const system = request.body.messages[0]?.content ?? '';
  if (system.includes('"Good for" phrasings')) return 'card';
  if (system.includes('questions a section of a team library answers')) return 'questions';
  if (system.includes('You answer yes/no questions')) return 'judge';
  if (system.includes('Find every fact, number, date or rule they state differently')) return 'conflicts';
  return 'other';
}

describe("wsctx keeps the model's background answers by content digest (local chat server)", function () {
  this.timeout(180_000);
  let server: ChatServer;
  let dir: string;
  let cache: string;
  before(async () => {
    server = await startChatServer((request) => {
      switch (kindOf(request)) {
        case 'card':
          return { content: JSON.stringify({ good_for: ['changing a database table'], read_whole: false }) };
        case 'questions':
          return { content: JSON.stringify({ questions: ['when may a column be renamed?'] }) };
        case 'judge':
          return { content: JSON.stringify(Object.fromEntries(judgeItemIds(request).map((id) => [id, 0.9]))) };
        case 'conflicts': {
          const user = request.body.messages[1].content;
          if (user.includes('Never rename a column') && user.includes('Renaming a column is fine')) {
            return {
              content: JSON.stringify({
                conflicts: [
                  {
                    a: 'Renaming a column is fine in the same release',
                    b: 'Never rename a column in the same release',
                    what: 'renaming columns',
                  },
                ],
              }),
            };
          }
          return { content: '{"conflicts": []}' };
        }
        default:
          return { status: 400, raw: '{"error":"unexpected prompt"}' };
      }
    });
    dir = tempDir('kept-answers');
    cache = tempDir('kept-answers-cache');
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
      '.context/guides/backfills.md',
      '---\ntitle: Backfills\n---\n\n# Backfills\n\n## Batches\n\nBackfill a renamed column in batches of 10,000 rows so the table is never locked for long.\n',
    );
  });
  after(async () => {
    await server.close();
    removeTempDirs();
  });

  const run = async (command: string[]) => {
    const before = server.requests.length;
    const result = await wsctxAsync([
      ...command,
      '--workspace',
      dir,
      '--cache-dir',
      cache,
      '--model-url',
      server.baseUrl,
      '--model',
      'fake',
    ]);
    assert.equal(result.code, 0, result.stderr);
    const kinds: Record<string, number> = {};
    for (const r of server.requests.slice(before)) kinds[kindOf(r)] = (kinds[kindOf(r)] ?? 0) + 1;
    return { result, kinds };
  };

  it('asks about every page on the first run, nothing on the second, and only the edited page after an edit', async () => {
    const first = await run(['index']);
    assert.equal(first.kinds.other, undefined);
    assert.ok((first.kinds.card ?? 0) > 0 && (first.kinds.questions ?? 0) > 0, JSON.stringify(first.kinds));
    assert.ok((first.kinds.judge ?? 0) >= 1, `inferred links were asked for: ${JSON.stringify(first.kinds)}`);
    assert.ok((first.kinds.conflicts ?? 0) >= 1, `the conflict check ran: ${JSON.stringify(first.kinds)}`);
    const files = fs
      .readdirSync(
        fs
          .readdirSync(cache)
          .map((n) => path.join(cache, n))
          .find((p) => path.basename(p).startsWith('activity-'))!,
      )
      .sort();
    assert.ok(
      ['enrichment.json', 'inferred-links.json', 'model-conflicts.json'].every((f) => files.includes(f)),
      files.join(', '),
    );

    const second = await run(['index']);
    assert.deepEqual(second.kinds, {});

    // The kept conflict is listed by a later process that asks nothing.
    const diagnostics = await run(['diagnostics']);
    assert.deepEqual(diagnostics.kinds, {});
    assert.match(
      diagnostics.result.stdout,
      /Conflicting pages \(1\):\n {2}renaming columns \(model, 1\.00\)\n {4}Schema changes \[[0-9a-f]+\] › Renames, \.context\/guides\/schema\.md:9: Renaming a column is fine in the same release\n {4}Migrations \[[0-9a-f]+\] › Renames, \.context\/rules\/migrations\.md:10: Never rename a column in the same release/,
    );

    write(
      dir,
      '.context/guides/backfills.md',
      '---\ntitle: Backfills\n---\n\n# Backfills\n\n## Batches\n\nBackfill a renamed column in batches of 5,000 rows so the table is never locked for long.\n',
    );
    const edited = await run(['index']);
    // One page changed: its card, its two sections' questions, and the links from it (one call)
    // and to it (one call for each of the two other pages); nothing else about the others.
    assert.deepEqual(edited.kinds, { card: 1, questions: 2, judge: 3 });
  });
});
