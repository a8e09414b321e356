/**
 * Several served folders are one workspace to the agent: `workspace_context` without `workspace`
 * answers from every folder (catalog entities included), each passage naming its folder. Narrowed
 * to one folder, its passages rank exactly as when that folder is served alone (same passages,
 * same order, same scores); asked of all, every folder weighs the question's terms alike (by
 * their counts over all the folders), so the merged scores are on one scale. Three real catalogs
 * (test/fixtures: RoadieHQ's plugin monorepo, Backstage's example catalog, Backstage's demo
 * site), served over stdio by the built server to the real MCP SDK client.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { callWhenWarm, connectStdio, type StdioSession } from '../helpers/mcpClients';
import { EXAMPLE_WORKSPACE, removeTempDirs, tempDir } from '../helpers/tempWorkspace';

const FIXTURES = path.resolve(__dirname, '../fixtures');

interface Passage {
  folder: string;
  headingPath: string[];
  sourceKind: string;
  sourceRef: { path: string; startLine: number; endLine: number };
  score: number;
  why: { signal: string; terms?: { term: string; weight: number }[] }[];
}

interface Answer {
  workspace: string;
  folders: string[];
  passages: Passage[];
}

/** Each folder and questions about its own entities and docs. */
const FOLDERS: { fixture: string; questions: string[] }[] = [
  {
    fixture: 'roadie-backstage-plugins',
    questions: [
      'backstage-plugin-argo-cd',
      'who owns backstage-plugin-jira?',
      'how do I configure the prometheus plugin?',
      'scaffolder http request action',
    ],
  },
  {
    fixture: 'backstage-catalog-examples/packages/catalog-model/examples',
    questions: [
      'artist-lookup',
      'who owns the wayback search?',
      'which APIs does the petstore provide?',
      'playback order component',
    ],
  },
  {
    fixture: 'backstage-demo',
    questions: [
      'backstage-demo',
      'demo graphql api',
      'how do I draw a mermaid diagram in the docs?',
      'download a file from techdocs',
    ],
  },
];

async function ask(session: StdioSession, args: Record<string, unknown>): Promise<Answer> {
  const result = await callWhenWarm(session.client, 'workspace_context', { limit: 20, ...args });
  assert.ok(!result.isError, JSON.stringify(result.content));
  return result.structuredContent as unknown as Answer;
}

/** What must be equal between two servings: the passage's place in its folder, its rank and score. */
function comparable(passages: readonly Passage[], folderName: string, prefixed: boolean): string[] {
  return passages.map((p) => {
    const inFolder = prefixed ? p.sourceRef.path.slice(folderName.length + 1) : p.sourceRef.path;
    return `${p.score.toFixed(12)} ${p.sourceKind} ${inFolder}:${p.sourceRef.startLine} ${p.headingPath.join(' › ')}`;
  });
}

describe('several served folders are one workspace (MCP over stdio, built server)', function () {
  this.timeout(300_000);
  const dirs: string[] = [];
  const alone: StdioSession[] = [];
  let all: StdioSession;

  before(async () => {
    for (const { fixture } of FOLDERS) {
      const dir = tempDir(path.basename(fixture));
      fs.cpSync(path.join(FIXTURES, fixture), dir, { recursive: true });
      dirs.push(dir);
      alone.push(await connectStdio(dir));
    }
    all = await connectStdio(
      dirs[0],
      dirs.slice(1).flatMap((d) => ['--workspace', d]),
    );
  });
  after(async () => {
    for (const session of [...alone, all]) await session?.close();
    removeTempDirs();
  });

  it("ranks each folder's passages as when it is served alone when narrowed to it, and on one scale when asking them all", async () => {
    for (let f = 0; f < FOLDERS.length; f++) {
      const name = path.basename(dirs[f]);
      for (const question of FOLDERS[f].questions) {
        const single = await ask(alone[f], { question });
        assert.ok(single.passages.length > 0, `${name}: "${question}" finds something alone`);
        const expected = comparable(single.passages, name, false);

        const narrowed = await ask(all, { question, workspace: name });
        assert.deepEqual(narrowed.folders, [name]);
        assert.deepEqual(comparable(narrowed.passages, name, true), expected, `${name}: "${question}" narrowed`);

        // Asked of every folder, every passage weighs each question term alike, whichever folder
        // it comes from (the folders' counts summed): one term, one weight in every why[].
        const everywhere = await ask(all, { question });
        assert.equal((everywhere as { candidatesCapped?: unknown }).candidatesCapped, undefined);
        assert.ok(
          everywhere.passages.some((p) => p.folder === name),
          `${name}: "${question}" asked of all finds it`,
        );
        const weights = new Map<string, Set<string>>();
        for (const p of everywhere.passages)
          for (const t of p.why.find((w) => w.signal === 'words')?.terms ?? [])
            weights.set(t.term, (weights.get(t.term) ?? new Set()).add(t.weight.toFixed(9)));
        assert.ok(weights.size > 0, `${name}: "${question}" has weighed terms`);
        for (const [term, seen] of weights)
          assert.equal(
            seen.size,
            1,
            `${name}: "${question}": "${term}" weighs ${[...seen].join(' and ')} across folders`,
          );
        // ...and the merged list is in score order, as every answer is.
        const scores = everywhere.passages.map((p) => p.score);
        assert.deepEqual(
          scores,
          [...scores].sort((a, b) => b - a),
          `${name}: "${question}" merged in score order`,
        );
      }
    }
  });

  it('answers from every folder, catalog entities included, each passage naming its folder', async () => {
    const answer = await ask(all, {
      question: 'which component owns the API?',
      sourceKinds: ['catalog_entity'],
      limit: 50,
    });
    assert.deepEqual(
      answer.folders,
      dirs.map((d) => path.basename(d)),
    );
    assert.deepEqual(
      [...new Set(answer.passages.map((p) => p.folder))].sort(),
      dirs.map((d) => path.basename(d)).sort(),
    );
    for (const p of answer.passages) assert.ok(p.sourceRef.path.startsWith(`${p.folder}/`), p.sourceRef.path);
  });

  it('refuses a workspace it does not serve, naming those it does', async () => {
    const result = await all.client.callTool({
      name: 'workspace_context',
      arguments: { question: 'x', workspace: 'nowhere' },
    });
    assert.equal(result.isError, true);
    const text = (result.content as { text: string }[])[0].text;
    for (const dir of dirs) assert.ok(text.includes(`'${path.basename(dir)}'`), text);
    assert.match(text, /leave workspace out to ask them all/);
  });

  it("keeps the example's catalog entities when a second folder is served (billing-worker)", async () => {
    const fernhill = tempDir('fernhill');
    fs.cpSync(EXAMPLE_WORKSPACE, fernhill, { recursive: true });
    const pair = await connectStdio(fernhill, ['--workspace', dirs[2]]);
    try {
      const answer = await ask(pair, { question: 'billing-worker', sourceKinds: ['catalog_entity'] });
      assert.equal(answer.passages[0].folder, path.basename(fernhill));
      assert.deepEqual(answer.passages[0].headingPath, ['component:default/billing-worker']);
    } finally {
      await pair.close();
    }
  });
});
