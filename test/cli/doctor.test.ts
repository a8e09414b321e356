/**
 * `wsctx doctor` as a user runs it: the built CLI on the example workspace (every check passes,
 * counts per folder) and on a broken setup (a cache path under a regular file, a folder holding
 * nothing to index), which fails with exit 1 and says what to do.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { TEST_CACHE_DIR, wsctx } from '../helpers/cli';
import { EXAMPLE_WORKSPACE, removeTempDirs, tempDir } from '../helpers/tempWorkspace';

describe('wsctx doctor (built CLI)', () => {
  after(removeTempDirs);

  it('passes on the example workspace, one line per check, with what was found in the folder', () => {
    const run = wsctx(['doctor', '--workspace', EXAMPLE_WORKSPACE]);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const lines = run.stdout.trimEnd().split('\n');
    assert.deepEqual(
      lines.map((l) => l.split(/\s{2,}/).slice(0, 2).join(' ')),
      ['ok node', 'ok git', 'ok vector index', 'ok syntax trees', 'ok embeddings', 'ok cache', 'warn folder fernhill', 'All checks passed.'],
    );
    assert.match(lines[0], new RegExp(`node\\s+v${process.versions.node.replace(/\./g, '\\.')}$`));
    assert.match(lines[1], /git\s+git version \d+\.\d+/);
    assert.match(lines[2], /vector index\s+hnswlib-node loaded: nearest sections by meaning come from the HNSW index$/);
    assert.match(lines[3], /syntax trees\s+web-tree-sitter loaded: comments and strings in code are found by syntax tree$/);
    assert.match(lines[4], /embeddings\s+off: passages rank on words alone/);
    assert.match(lines[5], new RegExp(`cache\\s+${TEST_CACHE_DIR.replace(/[/\\.]/g, '\\$&')} is writable$`));
    assert.match(
      lines[6],
      /folder fernhill\s+\S+examples\/fernhill: 98 files, 66 catalog entities, 133 documents \(66 catalog_entity, 29 catalog_doc, 28 library, 7 epic_doc, 3 repo_overview\), 1 problem \(wsctx index lists them\)$/,
    );
  });

  it('loads the local embedding model and times one question', () => {
    const run = wsctx(['doctor', '--workspace', EXAMPLE_WORKSPACE, '--embeddings', 'local']);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /^ok {4}embeddings {8}local minilm: loaded and embedded a question in \d+ ms \(384 dimensions\)$/m);
    assert.match(run.stdout, /^ok {4}onnxruntime-node {2}(loaded|not installed)/m);
  });

  it('fails with exit 1 on an unwritable cache and a folder with nothing to index, saying what to do', () => {
    const root = tempDir('doctor');
    const file = path.join(root, 'a-file');
    fs.writeFileSync(file, 'not a folder');
    const empty = path.join(root, 'empty');
    fs.mkdirSync(empty);
    const run = wsctx(['doctor', '--workspace', empty, '--cache-dir', path.join(file, 'cache'), '--json']);
    assert.equal(run.code, 1, run.stdout + run.stderr);
    const checks = JSON.parse(run.stdout) as { name: string; status: string; detail: string }[];
    const byName = new Map(checks.map((c) => [c.name, c]));
    assert.equal(byName.get('cache')!.status, 'fail');
    assert.match(byName.get('cache')!.detail, /a-file\/cache is not writable \(ENOTDIR: not a directory, mkdir .*\); pass --cache-dir DIR or set \$WSCTX_CACHE_DIR$/);
    assert.deepEqual(byName.get('folder empty'), { name: 'folder empty', status: 'fail', detail: `${empty}: nothing indexable found (catalog-info.yaml, docs, README, .context/); is this the workspace root?` });
    assert.deepEqual(checks.filter((c) => c.status === 'fail').map((c) => c.name), ['cache', 'folder empty']);
    const text = wsctx(['doctor', '--workspace', empty, '--cache-dir', path.join(file, 'cache')]);
    assert.equal(text.code, 1);
    assert.match(text.stdout, /^fail  cache /m);
    assert.match(text.stdout, /\n2 checks failed\.\n$/);
  });
});
