/**
 * The tree-sitter service on the real runtime and the real grammar files of tree-sitter-wasms:
 * every grammar relied on loads and finds the exact comments and strings of its sample; a runtime
 * or grammar that fails to load (a missing package, bytes that are not WebAssembly) answers null,
 * says why once, and the combined reader falls back to the plain scanner with the same answer.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import picomatch from 'picomatch';
import {
  sourceCommentAndStringRanges,
  sourceCommentAndStringRangesNow,
} from '../../../../server/src/engine/parsing/commentsAndStrings';
import { sourceLanguageOf } from '../../../../server/src/engine/parsing/languages';
import {
  GRAMMAR_FILES,
  SyntaxTrees,
  defaultGrammarDir,
  grammarLanguageOf,
  loadWebTreeSitter,
  type GrammarLanguage,
} from '../../../../server/src/engine/parsing/syntaxTree';
import { removeTempDirs, tempDir, write } from '../../../helpers/tempWorkspace';
import { GRAMMAR_SAMPLES, marked } from './samples';

const LANGUAGES = Object.keys(GRAMMAR_FILES) as GrammarLanguage[];

describe('syntax trees (web-tree-sitter)', () => {
  after(() => removeTempDirs());

  it('loads every grammar it relies on with this runtime', async () => {
    const trees = new SyntaxTrees();
    assert.equal(trees.status().backend, 'not-loaded');
    await trees.preload();
    assert.deepEqual(trees.status(), {
      backend: 'tree-sitter',
      reason: 'web-tree-sitter loaded',
      grammars: Object.fromEntries(LANGUAGES.map((language) => [language, 'loaded'])),
    });
  });

  describe('finds the exact comments and strings of each grammar', () => {
    const trees = new SyntaxTrees();
    for (const sample of GRAMMAR_SAMPLES) {
      it(sample.path, async () => {
        assert.deepEqual(await trees.commentAndStringRanges(sample.path, sample.text), sample.ranges);
      });
    }
  });

  it('has a sample for every grammar', () => {
    const sampled = new Set(GRAMMAR_SAMPLES.map((s) => grammarLanguageOf(sourceLanguageOf(s.path))));
    assert.deepEqual([...sampled].sort(), [...LANGUAGES].sort());
  });

  it('is packaged with exactly the grammar files it loads', () => {
    // .vscodeignore is an allow-list: the grammars ship only where a `!` line names them.
    const lines = fs.readFileSync(path.resolve(__dirname, '../../../../.vscodeignore'), 'utf8').split('\n');
    const allowed = lines
      .filter((l) => l.startsWith('!node_modules/tree-sitter-wasms/out/'))
      .map((l) => picomatch(l.slice(1)));
    const shipped = fs
      .readdirSync(defaultGrammarDir())
      .filter((f) => allowed.some((match) => match(`node_modules/tree-sitter-wasms/out/${f}`)));
    assert.deepEqual(shipped.sort(), Object.values(GRAMMAR_FILES).sort());
  });

  it('answers null for languages it has no grammar for, and for prose', async () => {
    const trees = new SyntaxTrees();
    for (const p of ['compose.yaml', 'db/schema.sql', 'proto/a.proto', 'README.md', 'notes.txt', 'Makefile']) {
      assert.equal(await trees.commentAndStringRanges(p, '# x\n// y\n'), null, p);
    }
  });

  it('answers at once only after the grammar has loaded, and the first ask starts the load', async () => {
    const trees = new SyntaxTrees();
    const sample = marked('a.go', '«// component:a»\npackage a\n');
    assert.equal(trees.commentAndStringRangesNow(sample.path, sample.text), undefined);
    await trees.preload(['go']);
    assert.deepEqual(trees.commentAndStringRangesNow(sample.path, sample.text), sample.ranges);
    assert.deepEqual(trees.status().grammars, { go: 'loaded' });
  });

  it('falls back to the plain scanner when the runtime is missing, and says why once', async () => {
    const logged: string[] = [];
    const empty = tempDir('no-runtime');
    const trees = new SyntaxTrees({ loader: () => loadWebTreeSitter(empty), log: (m) => logged.push(m) });
    for (const sample of GRAMMAR_SAMPLES) {
      assert.equal(await trees.commentAndStringRanges(sample.path, sample.text), null);
      assert.deepEqual(await sourceCommentAndStringRanges(sample.path, sample.text, trees), sample.ranges, sample.path);
      assert.deepEqual(sourceCommentAndStringRangesNow(sample.path, sample.text, trees), sample.ranges, sample.path);
    }
    const reason = "web-tree-sitter could not be loaded (Cannot find module 'web-tree-sitter')";
    assert.deepEqual(logged, [`syntax: ${reason}; comments and strings are found by the plain scanner`]);
    const status = trees.status();
    assert.equal(status.backend, 'plain');
    assert.equal(status.reason, `${reason}; comments and strings are found by the plain scanner`);
  });

  it('falls back when the runtime WebAssembly does not instantiate', async () => {
    // A real copy of the package whose .wasm is not WebAssembly.
    const root = tempDir('bad-runtime');
    const installed = path.dirname(require.resolve('web-tree-sitter'));
    for (const file of ['package.json', 'web-tree-sitter.cjs'])
      write(root, `node_modules/web-tree-sitter/${file}`, fs.readFileSync(path.join(installed, file)));
    write(root, 'node_modules/web-tree-sitter/web-tree-sitter.wasm', 'not wasm');
    const logged: string[] = [];
    const trees = new SyntaxTrees({ loader: () => loadWebTreeSitter(root), log: (m) => logged.push(m) });
    const original = process.stderr.write;
    process.stderr.write = () => true; // emscripten reports the abort on stderr too
    try {
      assert.equal(await trees.commentAndStringRanges('a.ts', '// x'), null);
    } finally {
      process.stderr.write = original;
    }
    assert.equal(trees.status().backend, 'plain');
    assert.match(
      trees.status().reason,
      /^web-tree-sitter could not be loaded \(Aborted\(CompileError: WebAssembly\.instantiate\(\): expected magic word 00 61 73 6d/,
    );
    assert.equal(logged.length, 1);
    assert.deepEqual(await sourceCommentAndStringRanges('a.ts', '// x', trees), [
      { start: 0, end: 4, kind: 'comment' },
    ]);
  });

  it('falls back per language when a grammar file is missing or broken, naming the file', async () => {
    const dir = tempDir('grammars');
    fs.copyFileSync(path.join(defaultGrammarDir(), GRAMMAR_FILES.python), path.join(dir, GRAMMAR_FILES.python));
    write(dir, GRAMMAR_FILES.go, 'not wasm');
    const logged: string[] = [];
    const trees = new SyntaxTrees({ grammarDir: dir, log: (m) => logged.push(m) });
    const go = marked('a.go', '«// component:a»\nvar s = ‹"x"›\n');
    assert.equal(await trees.commentAndStringRanges(go.path, go.text), null);
    assert.equal(await trees.commentAndStringRanges('a.ts', '// x'), null);
    assert.deepEqual(await trees.commentAndStringRanges('a.py', '# x'), [{ start: 0, end: 3, kind: 'comment' }]);
    assert.deepEqual(await sourceCommentAndStringRanges(go.path, go.text, trees), go.ranges);

    const status = trees.status();
    assert.equal(status.backend, 'tree-sitter');
    assert.equal(status.grammars.python, 'loaded');
    assert.match(status.grammars.go ?? '', /^grammar tree-sitter-go\.wasm could not be loaded \(.+\)$/);
    assert.match(
      status.grammars.typescript ?? '',
      /^grammar tree-sitter-typescript\.wasm could not be loaded \(ENOENT/,
    );
    assert.deepEqual(
      logged.map((m) => m.replace(/ \(.*\);/, ' (...);')),
      [
        'syntax: grammar tree-sitter-go.wasm could not be loaded (...); go files use the plain scanner',
        'syntax: grammar tree-sitter-typescript.wasm could not be loaded (...); typescript files use the plain scanner',
      ],
    );
  });
});
