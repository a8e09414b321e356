import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { generateWorkspace, parseSize, type GeneratedWorkspace } from '../../../bench/generate';
import { Engine } from '../../../server/src/engine/engine';

/** Path -> sha256 of every file under `dir`, `.git` folders left out. */
function digests(dir: string, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const entry of readdirSync(path.join(dir, prefix), { withFileTypes: true })) {
    if (entry.name === '.git') continue;
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) for (const [k, v] of digests(dir, rel)) out.set(k, v);
    else
      out.set(
        rel,
        createHash('sha256')
          .update(readFileSync(path.join(dir, rel)))
          .digest('hex'),
      );
  }
  return out;
}

describe('bench/generate', function () {
  this.timeout(120_000);
  const dirs: string[] = [];
  const fresh = () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'wsctx-gen-test-'));
    dirs.push(dir);
    return dir;
  };
  after(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  let first: GeneratedWorkspace;
  before(() => {
    first = generateWorkspace({ dir: fresh(), sections: parseSize('1k'), seed: 1 });
  });

  it('writes byte-identical files for the same seed', () => {
    const again = generateWorkspace({ dir: fresh(), sections: 1000, seed: 1 });
    const a = digests(first.dir);
    const b = digests(again.dir);
    assert.equal(a.size, first.files);
    assert.deepEqual([...b.entries()].sort(), [...a.entries()].sort());
    assert.deepEqual({ ...again, dir: '', writeMs: 0 }, { ...first, dir: '', writeMs: 0 });
  });

  it('writes different files for another seed', () => {
    const other = generateWorkspace({ dir: fresh(), sections: 1000, seed: 2 });
    const a = digests(first.dir);
    const b = digests(other.dir);
    const same = [...b].filter(([p, d]) => a.get(p) === d).length;
    assert.ok(same < b.size / 10, `only a few files (${same} of ${b.size}) may coincide`);
  });

  it('writes every source kind, with relations between entities, near the size asked for', () => {
    const files = [...digests(first.dir).keys()];
    assert.ok(first.predictedSections >= 1000 && first.predictedSections < 1200, `sections ${first.predictedSections}`);
    assert.ok(
      files.includes('org/catalog/groups.yaml') &&
        files.includes('org/catalog/users.yaml') &&
        files.includes('AGENTS.md'),
    );
    assert.ok(
      files.some((f) => /^[^/]+\/services\/[^/]+\/mkdocs\.yml$/.test(f)),
      'TechDocs sites',
    );
    assert.ok(
      files.some((f) => /^[^/]+\/overview\.md$/.test(f)),
      'repository overviews',
    );
    assert.ok(
      files.some((f) => /^[^/]+\/epics\/[^/]+\.md$/.test(f)),
      'epics',
    );
    assert.ok(
      files.some((f) => /^\.context\/rules\/[^/]+\.md$/.test(f)) &&
        files.includes('.context/packs/service-change.yaml'),
      'library',
    );
    for (const kind of ['Group', 'User', 'Domain', 'System', 'Component', 'API', 'Resource', 'Location']) {
      assert.ok((first.entitiesByKind[kind] ?? 0) > 0, `no ${kind}`);
    }
    const catalog = readFileSync(path.join(first.dir, first.probes.catalogFile), 'utf8');
    assert.match(catalog, /^ {2}dependsOn:$/m);
    assert.match(catalog, /^ {2}providesApis: \[/m);
    assert.match(readFileSync(path.join(first.dir, first.probes.docsPage), 'utf8'), /^# Architecture\n/);
    // Identifiers as engineering docs write them: kebab-case names and upper-case settings.
    const page = readFileSync(path.join(first.dir, first.probes.docsPage), 'utf8');
    assert.match(page + catalog, /[a-z]+-\d{4}-[a-z]+/);
  });

  it('is indexed by the engine with exactly the sections and entities it wrote, and no problems', async () => {
    const engine = new Engine({ folders: [{ name: 'ws', absPath: first.dir }], settings: { refreshAfterMs: 0 } });
    try {
      const state = await engine.waitForIndex();
      assert.deepEqual(state.problems, []);
      assert.equal(state.counts.sections, first.predictedSections);
      assert.deepEqual(state.counts.entitiesByKind, first.entitiesByKind);
      assert.equal(state.counts.files, first.files);
      // Every repository (with its overview) is a root, plus the workspace folder itself.
      assert.equal(state.repos.length, first.repositories + 1);
      assert.ok(
        state.counts.edgesByType.dependsOn > 0 &&
          state.counts.edgesByType.consumesApi > 0 &&
          state.counts.edgesByType.memberOf > 0,
      );
      for (const kind of ['catalog_entity', 'catalog_doc', 'repo_overview', 'epic_doc', 'library'] as const) {
        assert.ok(state.counts.bySourceKind[kind] > 0, `no ${kind}`);
      }
    } finally {
      engine.dispose();
    }
  });

  it('makes each repository a git repository with back-dated commits in git mode', async () => {
    const made = generateWorkspace({ dir: fresh(), sections: 300, seed: 3, git: true });
    const repo = path.join(made.dir, path.dirname(made.probes.catalogFile));
    const log = execFileSync('git', ['log', '--format=%ad %s', '--date=iso-strict'], { cwd: repo, encoding: 'utf8' })
      .trim()
      .split('\n');
    assert.equal(log.length, 3);
    assert.match(log[2], /part 1 of 3$/);
    for (const line of log) assert.ok(Date.parse(line.split(' ')[0]) < Date.UTC(2026, 9, 1), line);
    assert.equal(
      execFileSync('git', ['status', '--porcelain'], { cwd: repo, encoding: 'utf8' }),
      '',
      'every file is committed',
    );
    const engine = new Engine({ folders: [{ name: 'ws', absPath: made.dir }], settings: { refreshAfterMs: 0 } });
    try {
      const state = await engine.waitForIndex();
      const repos = state.repos.filter((r) => r.root !== '');
      assert.equal(repos.length, made.repositories);
      assert.ok(repos.every((r) => r.git && r.head !== null));
      const info = state.commits.get(made.probes.docsPage);
      assert.ok(info && info.commit !== null && !info.dirty && info.lastCommitTime! < Date.UTC(2026, 9, 1));
    } finally {
      engine.dispose();
    }
  });

  it('refuses a size it does not know', () => {
    assert.equal(parseSize('10k'), 10_000);
    assert.equal(parseSize('2500'), 2500);
    assert.equal(parseSize('1m'), 1_000_000);
    assert.equal(parseSize('250k'), 250_000);
    assert.throws(() => parseSize('huge'), /--size must be 1k, 10k, 100k/);
    assert.throws(() => parseSize('50'), /--size/);
  });
});
