/**
 * Which documents come first when words alone cannot tell (contract 2026-12-01.3): a signed
 * record (front matter naming its authors) gives way to the maintained page on the same
 * subject, and passages of equal score follow the workspace's reading order. Each case failed
 * under 2026-12-01.2.
 */
import assert from 'node:assert/strict';
import type { Engine } from '../../../../server/src/engine/engine';
import { type RankingTuning, SIGNED_RECORD_WEIGHT, WORDS_WEIGHT } from '../../../../server/src/engine/ranking/contract';
import { rankWorkspaceContext } from '../../../../server/src/engine/ranking/workspaceContextRanker';
import { isSignedRecord } from '../../../../server/src/engine/ranking/rankingTables';
import { removeTempDirs, tempDir, write } from '../../../helpers/tempWorkspace';
import { epic, heading, index, NOW, rank } from './rankingFixture';

describe('workspace_context document order', () => {
  const engines: Engine[] = [];
  afterEach(() => engines.splice(0).forEach((e) => e.dispose()));
  after(removeTempDirs);

  const SIDECAR_QUESTION = 'How do I plug a custom manifest rendering tool into the repo server as a sidecar plugin?';

  /** A signed design proposal and the maintained page on the same subject, indexed. */
  async function recordAndPage(name: string) {
    const dir = tempDir(name);
    write(
      dir,
      'epics/plugin-proposal.md',
      epic(
        'Extension design',
        '## Proposal\n\nWe propose that a custom tool runs as a sidecar plugin next to the repo server, and that each tool ships in an image of its own.',
        'authors:\n  - "@someone"\ncreation-date: 2021-03-29\n',
      ),
    );
    write(
      dir,
      'epics/plugins.md',
      epic(
        'Extensions',
        '## Sidecar plugin\n\nInstall a plugin as a sidecar container of the repo server: add the container to the repo server deployment and mount the plugin configuration into it.',
      ),
    );
    const { engine, state } = await index(dir);
    engines.push(engine);
    return state;
  }

  it('ranks the maintained page above a signed proposal that shares more of the words', async () => {
    const state = await recordAndPage('records');
    const passages = rank(state, SIDECAR_QUESTION);
    assert.equal(heading(passages[0]), 'epics/plugins.md › Sidecar plugin');
    const record = passages.find((p) => p.entry.doc.path === 'epics/plugin-proposal.md')!;
    assert.ok(record, 'the proposal still answers, below');
    const words = record.why.find((w) => w.signal === 'words')!;
    // The proposal holds more of the question: only the record's weight puts it second.
    const plain = passages[0].why.find((w) => w.signal === 'words')!;
    assert.ok(words.raw > plain.raw, `proposal words ${words.raw} > page words ${plain.raw}`);
    assert.equal(words.weight, SIGNED_RECORD_WEIGHT);
    assert.match(words.detail, /signed record/);
    const sum = record.why.reduce((acc, w) => acc + w.contribution, 0);
    assert.equal(record.score, sum);
    assert.equal(passages[0].why.find((w) => w.signal === 'words')!.weight, 1);
  });

  it("takes a measurement's record weight where it takes the published one (bench --grid SIGNED_RECORD_WEIGHT)", async () => {
    const state = await recordAndPage('records-tuned');
    const question = SIDECAR_QUESTION;
    const order = (tuning?: RankingTuning) =>
      rankWorkspaceContext(state, { question, limit: 10, now: NOW, ...(tuning ? { tuning } : {}) }).passages.map(
        (p) => `${heading(p)} ${p.score.toFixed(6)}`,
      );
    // The published value given as a measurement's ranks exactly as the published tables do.
    assert.deepEqual(order({ SIGNED_RECORD_WEIGHT }), order());
    // At 1 the record counts in full, and its larger share of the question puts it first.
    const full = order({ SIGNED_RECORD_WEIGHT: 1 });
    assert.match(full[0], /^epics\/plugin-proposal\.md › Proposal /);
    assert.match(full[1], /^epics\/plugins\.md › Sidecar plugin /);
  });

  it('tells a signed record by its front matter alone', () => {
    assert.equal(isSignedRecord({ frontMatter: { authors: ['@a'] } }), true);
    assert.equal(isSignedRecord({ frontMatter: { author: 'Ann' } }), true);
    assert.equal(isSignedRecord({ frontMatter: { authors: [] } }), false);
    assert.equal(isSignedRecord({ frontMatter: { author: ' ' } }), false);
    assert.equal(isSignedRecord({ frontMatter: { kind: 'epic', owner: 'team-a', status: 'draft' } }), false);
    assert.equal(isSignedRecord({ frontMatter: {} }), false);
    assert.ok(WORDS_WEIGHT * SIGNED_RECORD_WEIGHT < WORDS_WEIGHT);
  });

  it('orders passages of equal score by their documents’ paths', async () => {
    const dir = tempDir('ties');
    const page = (verb: string) =>
      epic(
        `ledger ${verb}-ignore`,
        `## ledger ${verb}-ignore\n\n${verb === 'add' ? 'Add' : 'Remove'} a resource to the ignore list of a project's orphaned resources.`,
      );
    write(dir, 'epics/ledger-remove-ignore.md', page('remove'));
    write(dir, 'epics/ledger-add-ignore.md', page('add'));
    const { engine, state } = await index(dir);
    engines.push(engine);
    const passages = rank(state, 'project orphaned resources ignore list');
    assert.equal(passages[0].score, passages[1].score, 'a tie');
    assert.deepEqual(
      passages.slice(0, 2).map((p) => p.entry.doc.path),
      ['epics/ledger-add-ignore.md', 'epics/ledger-remove-ignore.md'],
    );
  });
});
