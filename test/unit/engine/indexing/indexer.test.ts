/**
 * Update passes of the indexer, computed from what changed only: commit facts, digests, the
 * discovery's file list, and the documents, each equal to what a full pass from scratch gives.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Indexer } from '../../../../server/src/engine/indexing/indexer';
import type { IndexState } from '../../../../server/src/engine/indexState';
import { resolveEngineSettings } from '../../../../server/src/engine/settings';
import {
  commitAll,
  copyExampleWorkspace,
  initRepo,
  removeTempDirs,
  tempDir,
  write,
} from '../../../helpers/tempWorkspace';

const T1 = 1_700_000_000;
const T2 = 1_710_000_000;

async function fresh(folders: { name: string; absPath: string }[]): Promise<IndexState> {
  return (await new Indexer(folders, resolveEngineSettings({})).full()).state;
}

/** What must not depend on how a state was reached. */
function facts(state: IndexState) {
  return {
    commits: [...state.commits].sort(([a], [b]) => (a < b ? -1 : 1)),
    digests: [...state.fileDigests].sort(([a], [b]) => (a < b ? -1 : 1)),
    docs: [...state.docs.values()]
      .map((d) => [d.path, d.sourceKind, d.digest, d.entityRefs])
      .sort((a, b) => (`${a[0]}${a[1]}` < `${b[0]}${b[1]}` ? -1 : 1)),
    problems: state.problems,
    counts: state.counts,
  };
}

describe('indexing/indexer: update passes', () => {
  after(removeTempDirs);

  async function workspace() {
    const dir = tempDir('indexer');
    const alpha = initRepo(path.join(dir, 'alpha'));
    const beta = initRepo(path.join(dir, 'beta'));
    write(alpha, 'overview.md', '# Alpha\n\nThe alpha repository.\n');
    write(alpha, 'AGENTS.md', '# Rules\n\nKeep it short.\n');
    write(alpha, 'epics/one.md', '# One\n\nFirst epic.\n');
    commitAll(alpha, 'alpha', T1);
    write(beta, 'overview.md', '# Beta\n\nThe beta repository.\n');
    write(beta, 'epics/two.md', '# Two\n\nSecond epic.\n');
    commitAll(beta, 'beta', T2);
    return { dir, alpha, beta, folders: [{ name: 'ws', absPath: dir }] };
  }

  it('computes commit facts and digests of changed files only, and ends where a full pass from scratch ends', async () => {
    const { dir, alpha, folders } = await workspace();
    const indexer = new Indexer(folders, resolveEngineSettings({}));
    const first = (await indexer.full()).state;
    assert.deepEqual(first.commits.get('alpha/epics/one.md'), {
      commit: first.repos.find((r) => r.root === 'alpha')!.head,
      dirty: false,
      lastCommitTime: T1 * 1000,
    });
    const betaInfo = first.commits.get('beta/overview.md');

    write(alpha, 'epics/one.md', '# One\n\nFirst epic, edited.\n');
    const { state, report } = await indexer.update([path.join(alpha, 'epics/one.md')]);
    assert.equal(report.kind, 'update');
    assert.deepEqual(report.filesChanged, ['alpha/epics/one.md']);
    assert.deepEqual(state.commits.get('alpha/epics/one.md'), {
      ...first.commits.get('alpha/epics/one.md')!,
      dirty: true,
    });
    assert.equal(state.commits.get('beta/overview.md'), betaInfo, 'an untouched file keeps its facts object');
    assert.deepEqual(facts(state), facts(await fresh(folders)));

    fs.rmSync(path.join(dir, 'beta/epics'), { recursive: true });
    const removal = await indexer.update([path.join(dir, 'beta/epics')]);
    assert.deepEqual(removal.report.filesRemoved, ['beta/epics/two.md']);
    assert.equal(removal.state.commits.has('beta/epics/two.md'), false);
    assert.equal(removal.state.fileDigests.has('beta/epics/two.md'), false);
    assert.deepEqual(facts(removal.state), facts(await fresh(folders)));
  });

  it('indexes a cold pass read and counted in worker threads as one on this thread, postings byte for byte', async () => {
    // The example with 600 more runbook pages of four sections: past the 512 files a pass hands
    // to its read workers, and the 2,000 sections it counts in its term workers.
    const dir = copyExampleWorkspace();
    for (let i = 0; i < 600; i++)
      write(
        dir,
        `platform-infra/docs/runbooks/generated-${i}.md`,
        `# Runbook ${i}\n\nRoll back step ${i} of the pipeline.\n\n## How do I retry ${i}?\n\nRun \`spec.retry.limit${i % 5}\` again.\n\n## Checks\n\nThe billing-worker's queue.\n\n### Deep ${i}\n\nStraße ${i}.\n`,
      );
    const folders = [{ name: 'fernhill', absPath: dir }];
    const pass = (readWorkers: number) =>
      new Indexer(folders, resolveEngineSettings({ readWorkers, useGit: false })).full();
    const here = await pass(0);
    const pooled = await pass(2);
    assert.ok(here.report.filesRead > 600);
    assert.equal(pooled.report.filesRead, here.report.filesRead);
    assert.deepEqual(facts(pooled.state), facts(here.state));
    assert.deepEqual(
      pooled.state.sections.map((entry) => entry && [entry.ordinal, entry.section.id, entry.section.text]),
      here.state.sections.map((entry) => entry && [entry.ordinal, entry.section.id, entry.section.text]),
    );
    assert.ok(here.state.counts.sections > 2_400);
    assert.deepEqual(Buffer.from(pooled.state.lexical.serialize()), Buffer.from(here.state.lexical.serialize()));
  });

  it('keeps the discovery in step, so a snapshot of it restores what is on disk', async () => {
    const { alpha, folders } = await workspace();
    const indexer = new Indexer(folders, resolveEngineSettings({}));
    await indexer.full();
    write(alpha, 'AGENTS.md', '# Rules\n\nKeep it short, and kind.\n');
    await indexer.update(['alpha/AGENTS.md']);
    const memory = indexer.memory()!;
    const onDisk = fs.statSync(path.join(alpha, 'AGENTS.md'));
    const listed = memory.discovery.files.find((f) => f.path === 'alpha/AGENTS.md')!;
    assert.deepEqual([listed.size, listed.mtimeMs], [onDisk.size, onDisk.mtimeMs]);
    assert.deepEqual(
      memory.discovery.files.map((f) => f.path),
      [...memory.table.list()],
    );

    // The next full pass re-reads nothing: every size and mtime matches.
    const full = await indexer.full();
    assert.equal(full.report.filesRead, 0);
    assert.deepEqual(full.report.filesChanged, []);
  });

  it('reads git facts of a repository that appeared since the last full pass', async () => {
    const { dir, folders } = await workspace();
    const indexer = new Indexer(folders, resolveEngineSettings({}));
    await indexer.full();
    const gamma = initRepo(path.join(dir, 'gamma'));
    write(gamma, 'overview.md', '# Gamma\n');
    commitAll(gamma, 'gamma', T2);
    const { state } = await indexer.full();
    assert.deepEqual(state.commits.get('gamma/overview.md'), {
      commit: state.repos.find((r) => r.root === 'gamma')!.head,
      dirty: false,
      lastCommitTime: T2 * 1000,
    });
    assert.deepEqual(facts(state), facts(await fresh(folders)));
  });

  it('shares the section maps between consecutive states and copies only the sections array', async () => {
    const { alpha, folders } = await workspace();
    const indexer = new Indexer(folders, resolveEngineSettings({}));
    const first = (await indexer.full()).state;
    const sectionsBefore = first.sections.length;
    write(alpha, 'overview.md', '# Alpha\n\nThe alpha repository.\n\n## New part\n\nMore.\n');
    const second = (await indexer.update(['alpha/overview.md'])).state;
    assert.equal(second.docs, first.docs);
    assert.equal(second.sectionOrdinalById, first.sectionOrdinalById);
    assert.notEqual(second.sections, first.sections);
    assert.equal(first.sections.length, sectionsBefore, 'the earlier state keeps its own sections array');
    assert.ok(second.sections.length > sectionsBefore);
  });
});
