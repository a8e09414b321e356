import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import { documentId, sectionId, sha256Hex } from '../../../../server/src/engine/chunking/ids';
import { isOverviewPath, readRepoOverview } from '../../../../server/src/engine/sources/overview';
import { type FileSource, MemoryFileSource } from '../../../../server/src/engine/workspace/fileSource';

/** Writes `files` under a fresh temp folder and reads every file back from disk. */
function workspaceOnDisk(files: Record<string, string>): FileSource {
  const root = fs.mkdtempSync(nodePath.join(os.tmpdir(), 'wsctx-overview-'));
  for (const [path, text] of Object.entries(files)) {
    fs.mkdirSync(nodePath.dirname(nodePath.join(root, path)), { recursive: true });
    fs.writeFileSync(nodePath.join(root, path), text);
  }
  const read = new Map<string, string>();
  for (const entry of fs.readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const abs = nodePath.join(entry.parentPath, entry.name);
    read.set(nodePath.relative(root, abs).split(nodePath.sep).join('/'), fs.readFileSync(abs, 'utf8'));
  }
  fs.rmSync(root, { recursive: true, force: true });
  return new MemoryFileSource(read);
}

describe('sources/overview', () => {
  const text = '# Payments platform\nWhat lives here.\n## Services\n- billing-worker\n';
  const files = workspaceOnDisk({
    'repos/payments/OVERVIEW.md': text,
    'repos/payments/docs/overview.md': '# Not at the root\n',
    'repos/payments/catalog-info.yaml': 'kind: Component\n',
    'repos/empty/README.md': '# Readme only\n',
  });
  const entities = ['component:default/billing-worker', 'api:default/payments-api', 'component:default/billing-worker'];

  it('reads overview.md in any case at the repository root and attaches every entity', async () => {
    const { doc, problems } = await readRepoOverview({
      files,
      repoRoot: 'repos/payments',
      entityKeys: entities,
      folder: 'ws',
    });
    assert.deepEqual(problems, []);
    assert.ok(doc);
    assert.equal(doc.id, documentId('repos/payments/OVERVIEW.md'));
    assert.equal(doc.path, 'repos/payments/OVERVIEW.md');
    assert.equal(doc.folder, 'ws');
    assert.equal(doc.sourceKind, 'repo_overview');
    assert.equal(doc.format, 'markdown');
    assert.equal(doc.title, 'Payments platform');
    assert.equal(doc.digest, sha256Hex(text));
    assert.deepEqual(doc.entityRefs, ['component:default/billing-worker', 'api:default/payments-api']);
    assert.deepEqual(doc.frontMatter, {});
    assert.equal(doc.docsRole, undefined);
    assert.equal(doc.library, undefined);
    assert.deepEqual(
      doc.sections.map((s) => [s.id, s.headingPath, s.startLine, s.endLine]),
      [
        [sectionId(doc.path, ['Payments platform']), ['Payments platform'], 1, 2],
        [sectionId(doc.path, ['Payments platform', 'Services']), ['Payments platform', 'Services'], 3, 4],
      ],
    );
  });

  it('returns no document for a repository without an overview at its root', async () => {
    assert.deepEqual(await readRepoOverview({ files, repoRoot: 'repos/empty', entityKeys: [] }), {
      doc: null,
      problems: [],
    });
  });

  it('reads the first of several case variants and reports the rest', async () => {
    const twice = workspaceOnDisk({ 'Overview.md': '# A\n', 'overview.md': '# B\n' });
    const { doc, problems } = await readRepoOverview({ files: twice, repoRoot: '', entityKeys: [] });
    assert.equal(doc?.path, 'Overview.md');
    assert.deepEqual(
      problems.map((p) => [p.path, p.code, p.related?.[0].path]),
      [['overview.md', 'overview.duplicate', 'Overview.md']],
    );
  });

  it('recognises overview paths only directly at the root', () => {
    assert.equal(isOverviewPath('overview.md', ''), true);
    assert.equal(isOverviewPath('a/Overview.MD', 'a'), true);
    assert.equal(isOverviewPath('a/b/overview.md', 'a'), false);
    assert.equal(isOverviewPath('a/overview.markdown', 'a'), false);
  });
});
