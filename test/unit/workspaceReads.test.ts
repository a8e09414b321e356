/**
 * Every read of a workspace file goes through the read guard (server/src/engine/workspace/
 * readGuard.ts: regular files only, non-blocking, inside the served folders, size-capped). This
 * test reads the sources and lists every file that calls a file-system read (an open, a read, a
 * directory listing); each must be the guard itself or on the list below, with the reason it may
 * read without it. A new read of a workspace file (as `wsctx check` once read the expectations
 * file with readFileSync, and hung on a FIFO) fails here until it goes through the guard.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
const SCANNED = ['server/src', 'shared', 'client/src'];

/** The guard: the one module that opens and reads workspace files. */
const GUARD = 'server/src/engine/workspace/readGuard.ts';

/** Files that read the file system without the guard, and why that is not a workspace file read. */
const ALLOWED: Record<string, string> = {
  // The workspace's own settings decide what the engine reads, so they cannot be read through it:
  // a regular file only (lstat, no link followed), non-blocking, 256 KiB at most.
  'server/src/config/configFileRead.ts': '.wsctx.yaml and the user config: its own guard (no link, no FIFO, 256 KiB)',
  'server/src/config/serverConfig.ts': "the server's --config file: the operator's, named on the command line",
  // The walk: lists directories and opens each file non-blocking (GUARDED_OPEN_FLAGS) only to
  // sniff its size and first bytes; its content is read later through the table's WorkspaceReader.
  'server/src/engine/workspace/discovery.ts': 'the walk: directory listings and a non-blocking sniff of each file',
  'server/src/engine/workspace/fileCheck.ts': "the walk's sniff of one file: non-blocking open, fstat, 8 KiB at most",
  'server/src/engine/embeddings/embedWorker.ts':
    "/proc/thread-self: the embedding worker's own thread id, to lower its priority",
  'server/src/engine/persistence/snapshotFile.ts': 'the cache folder: the snapshot (opened through openGuarded)',
  'server/src/engine/embeddings/vectorCache.ts': 'the cache folder: the vector cache',
  'server/src/engine/embeddings/onnxModelCache.ts': 'the cache folder: the assembled ONNX model',
  'server/src/engine/embeddings/localModels.ts': "a packaged model's package.json in node_modules",
  'server/src/engine/embeddings/miniLmModel.ts': "the packaged model's weights, tokenizer and config",
  'server/src/engine/embeddings/ortMiniLmModel.ts': "the packaged model's weights, tokenizer and config",
  'server/src/engine/meaning/sectionVectors.ts': 'the cache folder: section vectors',
  'server/src/engine/parsing/syntaxTree.ts': 'a packaged tree-sitter grammar (WASM) in node_modules',
  'server/src/engine/vector/exactIndex.ts': 'the cache folder: the vector index',
  'server/src/engine/vector/graphIndex.ts': 'the cache folder: the vector index',
  'server/src/engine/vector/hnswIndex.ts': 'the cache folder: the vector index',
  'server/src/engine/vector/vectorIndex.ts': 'the cache folder: the vector index',
  'server/src/library/activity/activityLog.ts': 'the cache folder: the call log',
  'server/src/library/models/answerFile.ts': "the cache folder: a model's answers",
  'server/src/library/models/enrichment.ts': 'the cache folder: enrichment answers',
  'server/src/library/models/verdictCache.ts': "the cache folder: the judge's verdicts",
  // The user's own notes folder (outside the workspace): listed here, each file read through
  // readGuardedBytesSync with the notes folder as its only root.
  'server/src/library/context/privateNotes.ts': "the user's private notes folder: listed here, read through the guard",
  'server/src/mcp/proxy.ts': "the editor's endpoint file in its storage folder",
};

/** A file-system call that opens, reads or lists. */
const READ =
  /\b(?:readFileSync|readFile|readSync|openSync|createReadStream|readdirSync|readdir|opendirSync|opendir|readlinkSync|readlink|openAsBlob)\s*\(|\b(?:fs|fsp|promises)\.open\s*\(/;

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) out.push(...sources(rel));
    else if (rel.endsWith('.ts')) out.push(rel);
  }
  return out;
}

/** The lines of `file` that call a read, comments left out. */
function readsIn(file: string): string[] {
  return fs
    .readFileSync(path.join(ROOT, file), 'utf8')
    .split('\n')
    .filter((line) => !/^\s*(\/\/|\*|\/\*)/.test(line) && READ.test(line));
}

describe('every workspace file is read through the read guard', () => {
  const readers = SCANNED.flatMap(sources).filter((file) => readsIn(file).length > 0);

  it('finds no file-system read outside the guard but the listed ones, each with its reason', () => {
    const unlisted = readers.filter((file) => file !== GUARD && !(file in ALLOWED));
    assert.deepEqual(
      unlisted.map((file) => `${file}: ${readsIn(file)[0].trim()}`),
      [],
      'read these files through server/src/engine/workspace/readGuard.ts (or list them here with why they are no workspace file)',
    );
  });

  it('lists no file that no longer reads, and the guard reads', () => {
    assert.ok(readers.includes(GUARD));
    assert.deepEqual(
      Object.keys(ALLOWED).filter((file) => !readers.includes(file)),
      [],
    );
  });

  it('the pattern finds each kind of read it looks for', () => {
    for (const line of [
      "readFileSync(file, 'utf8')",
      'await fs.readFile(x)',
      'fs.readSync(fd, buf)',
      "openSync(p, 'r')",
      'await fs.open(p, flags)',
      'createReadStream(p)',
      'await fs.readdir(dir)',
      'await fs.promises.opendir(dir)',
    ])
      assert.ok(READ.test(line), line);
    assert.ok(!READ.test('fs.statSync(p)'));
  });
});
