/**
 * Comments and strings in source code, found by tree-sitter: the only file that touches
 * `web-tree-sitter` and the grammar files of `tree-sitter-wasms`.
 *
 * Both packages stay outside the bundles (esbuild.mjs) and ship in the VSIX's node_modules, so
 * they are found from this file's folder the way `require` looks: `dist/` beside the packaged
 * `node_modules/`, or this source folder under tsx. The runtime is loaded on the first question
 * and each grammar on the first file of its language; a parser per language is kept.
 *
 * A platform where the runtime or a grammar does not load still works: the answer for that file is
 * null, `syntaxStatus()` says why, the log callback hears it once, and callers fall back to the
 * plain scanner (plainComments.ts, commentsAndStrings.ts).
 *
 * Grammars (tree-sitter-wasms 0.1.13 under web-tree-sitter 0.27, each checked by
 * test/unit/engine/parsing/syntaxTree.test.ts): typescript, tsx, javascript, python, go, java,
 * kotlin and rust load once their legacy dylink section is rewritten (dylinkSection.ts). The yaml
 * grammar does not (its C++ scanner needs `operator new`, which the runtime does not export:
 * "resolved is not a function"), so YAML goes to the plain scanner.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import type * as TreeSitter from 'web-tree-sitter';
import { upgradeDylinkSection } from './dylinkSection';
import { sourceLanguageOf, type CommentAndStringFinder, type SourceLanguage, type TextRange } from './languages';

/** What this module needs of web-tree-sitter, initialised (`Parser.init` done). */
export type TreeSitterModule = Pick<typeof TreeSitter, 'Parser' | 'Language'>;

/**
 * Loads and initialises the runtime, or rejects. Injectable so a test can make the load fail for
 * real (a package that is not there, a `.wasm` that is not WebAssembly).
 */
export type TreeSitterLoader = () => Promise<TreeSitterModule>;

/** Languages parsed with a tree-sitter grammar. */
export type GrammarLanguage = 'typescript' | 'tsx' | 'javascript' | 'python' | 'go' | 'java' | 'kotlin' | 'rust';

/** The grammar file of each language in `tree-sitter-wasms/out/` (.vscodeignore ships these only). */
export const GRAMMAR_FILES: Readonly<Record<GrammarLanguage, string>> = {
  typescript: 'tree-sitter-typescript.wasm',
  tsx: 'tree-sitter-tsx.wasm',
  javascript: 'tree-sitter-javascript.wasm',
  python: 'tree-sitter-python.wasm',
  go: 'tree-sitter-go.wasm',
  java: 'tree-sitter-java.wasm',
  kotlin: 'tree-sitter-kotlin.wasm',
  rust: 'tree-sitter-rust.wasm',
};

interface NodeTypes {
  comments: ReadonlySet<string>;
  strings: ReadonlySet<string>;
  /** Children of a string that are code (interpolations), delimiters included. */
  holes: ReadonlySet<string>;
  /** Kotlin writes `${`, the expression and `}` as siblings, and `$` before an identifier. */
  holeOpeners?: ReadonlySet<string>;
}

const JS_TYPES: NodeTypes = {
  comments: new Set(['comment']),
  strings: new Set(['string', 'template_string']),
  holes: new Set(['template_substitution']),
};

const NODE_TYPES: Readonly<Record<GrammarLanguage, NodeTypes>> = {
  typescript: JS_TYPES,
  tsx: JS_TYPES,
  javascript: JS_TYPES,
  python: { comments: new Set(['comment']), strings: new Set(['string']), holes: new Set(['interpolation']) },
  go: {
    comments: new Set(['comment']),
    strings: new Set(['interpreted_string_literal', 'raw_string_literal', 'rune_literal']),
    holes: new Set(),
  },
  java: {
    comments: new Set(['line_comment', 'block_comment']),
    strings: new Set(['string_literal', 'character_literal']),
    holes: new Set(),
  },
  kotlin: {
    comments: new Set(['line_comment', 'multiline_comment']),
    strings: new Set(['string_literal', 'character_literal']),
    holes: new Set(),
    holeOpeners: new Set(['${', '$']),
  },
  rust: {
    comments: new Set(['line_comment', 'block_comment']),
    strings: new Set(['string_literal', 'raw_string_literal', 'char_literal']),
    holes: new Set(),
  },
};

export interface SyntaxTreeOptions {
  /** Loads the runtime. Default: web-tree-sitter found from this file's folder, loaded once per process. */
  loader?: TreeSitterLoader;
  /** Folder holding the grammar files. Default: `tree-sitter-wasms/out` found from this file's folder. */
  grammarDir?: string;
  /** Hears, once each, why the runtime or a grammar did not load. */
  log?: (message: string) => void;
}

export interface SyntaxStatus {
  /** `tree-sitter`: the runtime loaded; `plain`: it did not (see reason); `not-loaded`: not asked yet. */
  backend: 'tree-sitter' | 'plain' | 'not-loaded';
  reason: string;
  /** Each grammar asked for so far: `loaded`, or why not. */
  grammars: Partial<Record<GrammarLanguage, string>>;
}

/** The language's grammar, when it has one. */
export function grammarLanguageOf(language: SourceLanguage | null): GrammarLanguage | null {
  return language !== null && Object.hasOwn(GRAMMAR_FILES, language) ? (language as GrammarLanguage) : null;
}

type Loaded<T> = { ok: true; value: T } | { ok: false; error: string };

/** Parses source files with tree-sitter to find their comments and strings. */
export class SyntaxTrees implements CommentAndStringFinder {
  private runtime: Promise<Loaded<TreeSitterModule>> | undefined;
  private runtimeResult: Loaded<TreeSitterModule> | undefined;
  private readonly parsers = new Map<GrammarLanguage, Promise<Loaded<TreeSitter.Parser>>>();
  private readonly ready = new Map<GrammarLanguage, Loaded<TreeSitter.Parser>>();
  private log: ((message: string) => void) | undefined;

  constructor(private readonly options: SyntaxTreeOptions = {}) {
    this.log = options.log;
  }

  /** Replaces the log callback (the language server sets it once it has a connection). */
  setLog(log: ((message: string) => void) | undefined): void {
    this.log = log;
  }

  /**
   * The comments and strings of `text`, read as the language `path`'s extension names. Null when
   * the language has no grammar here, or the runtime or the grammar did not load, or the parse
   * failed. Never throws.
   */
  async commentAndStringRanges(path: string, text: string): Promise<TextRange[] | null> {
    const language = grammarLanguageOf(sourceLanguageOf(path));
    if (!language) return null;
    const parser = await this.parser(language);
    return parser.ok ? this.parse(language, parser.value, text) : null;
  }

  /**
   * The same answer without waiting: undefined while the runtime or the grammar is still loading
   * (this call starts the load), null or the ranges once it is known.
   */
  commentAndStringRangesNow(path: string, text: string): TextRange[] | null | undefined {
    const language = grammarLanguageOf(sourceLanguageOf(path));
    if (!language) return null;
    const parser = this.ready.get(language);
    if (!parser) {
      void this.parser(language);
      return undefined;
    }
    return parser.ok ? this.parse(language, parser.value, text) : null;
  }

  /** Loads the grammars of `languages` now (all by default), so later answers need not wait. */
  async preload(
    languages: readonly GrammarLanguage[] = Object.keys(GRAMMAR_FILES) as GrammarLanguage[],
  ): Promise<void> {
    await Promise.all(languages.map((language) => this.parser(language)));
  }

  status(): SyntaxStatus {
    const grammars: Partial<Record<GrammarLanguage, string>> = {};
    for (const [language, loaded] of this.ready) grammars[language] = loaded.ok ? 'loaded' : loaded.error;
    if (!this.runtimeResult)
      return { backend: 'not-loaded', reason: 'web-tree-sitter is loaded on the first source file', grammars };
    if (!this.runtimeResult.ok)
      return {
        backend: 'plain',
        reason: `${this.runtimeResult.error}; comments and strings are found by the plain scanner`,
        grammars,
      };
    return { backend: 'tree-sitter', reason: 'web-tree-sitter loaded', grammars };
  }

  private loadRuntime(): Promise<Loaded<TreeSitterModule>> {
    const load = this.options.loader ?? (() => loadWebTreeSitter());
    // Through a promise, so a loader that throws rather than rejects is caught the same way.
    this.runtime ??= Promise.resolve()
      .then(load)
      .then(
        (value): Loaded<TreeSitterModule> => (this.runtimeResult = { ok: true, value }),
        (err: unknown): Loaded<TreeSitterModule> => {
          this.runtimeResult = { ok: false, error: `web-tree-sitter could not be loaded (${firstLine(err)})` };
          this.log?.(`syntax: ${this.runtimeResult.error}; comments and strings are found by the plain scanner`);
          return this.runtimeResult;
        },
      );
    return this.runtime;
  }

  private parser(language: GrammarLanguage): Promise<Loaded<TreeSitter.Parser>> {
    let loading = this.parsers.get(language);
    if (!loading) {
      loading = this.loadParser(language).then((loaded) => {
        this.ready.set(language, loaded);
        return loaded;
      });
      this.parsers.set(language, loading);
    }
    return loading;
  }

  private async loadParser(language: GrammarLanguage): Promise<Loaded<TreeSitter.Parser>> {
    const runtime = await this.loadRuntime();
    if (!runtime.ok) return runtime;
    try {
      const file = path.join(this.options.grammarDir ?? defaultGrammarDir(), GRAMMAR_FILES[language]);
      const bytes = upgradeDylinkSection(await readFile(file));
      const grammar = await oneAtATime(() => runtime.value.Language.load(bytes));
      const parser = new runtime.value.Parser();
      parser.setLanguage(grammar);
      return { ok: true, value: parser };
    } catch (err) {
      const error = `grammar ${GRAMMAR_FILES[language]} could not be loaded (${firstLine(err)})`;
      this.log?.(`syntax: ${error}; ${language} files use the plain scanner`);
      return { ok: false, error };
    }
  }

  private parse(language: GrammarLanguage, parser: TreeSitter.Parser, text: string): TextRange[] | null {
    let tree: TreeSitter.Tree | null = null;
    try {
      tree = parser.parse(text);
      if (!tree) throw new Error('the parser returned no tree');
      const ranges: TextRange[] = [];
      collect(tree.rootNode, NODE_TYPES[language], ranges);
      return ranges;
    } catch (err) {
      // A grammar that traps may have left its memory in any state: stop using it.
      const error = `grammar ${GRAMMAR_FILES[language]} failed while parsing (${firstLine(err)})`;
      this.ready.set(language, { ok: false, error });
      this.parsers.set(language, Promise.resolve({ ok: false, error }));
      this.log?.(`syntax: ${error}; ${language} files use the plain scanner`);
      return null;
    } finally {
      tree?.delete();
    }
  }
}

/**
 * Comments and strings under `root`, in text order. Iterative over the tree (a long chain of `+`
 * nests thousands deep); a string's holes are walked by a nested call, as deep as templates nest.
 */
function collect(root: TreeSitter.Node, types: NodeTypes, out: TextRange[]): void {
  const cursor = root.walk();
  try {
    for (;;) {
      // Named nodes only: TypeScript's `string` type keyword is an anonymous node named `string`.
      const type = cursor.nodeIsNamed ? cursor.nodeType : '';
      if (types.comments.has(type)) {
        out.push({ start: cursor.startIndex, end: cursor.endIndex, kind: 'comment' });
      } else if (types.strings.has(type)) {
        collectString(cursor.currentNode, types, out);
      } else if (cursor.gotoFirstChild()) {
        continue;
      }
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent()) return;
      }
    }
  } finally {
    cursor.delete();
  }
}

function collectString(node: TreeSitter.Node, types: NodeTypes, out: TextRange[]): void {
  let at = node.startIndex;
  const children = node.children;
  for (let i = 0; i < children.length; i++) {
    const child = children[i];
    if (!child) continue;
    let last = i;
    if (types.holeOpeners?.has(child.type)) {
      // `${` ... `}`, or `$` and the identifier after it.
      if (child.type === '$') last = Math.min(i + 1, children.length - 1);
      else while (last + 1 < children.length && children[last]?.type !== '}') last++;
    } else if (!types.holes.has(child.type)) {
      continue;
    }
    if (child.startIndex > at) out.push({ start: at, end: child.startIndex, kind: 'string' });
    for (let j = i; j <= last; j++) {
      const inner = children[j];
      if (inner && !types.holeOpeners?.has(inner.type) && inner.type !== '}') collect(inner, types, out);
    }
    at = children[last]?.endIndex ?? child.endIndex;
    i = last;
  }
  if (node.endIndex > at) out.push({ start: at, end: node.endIndex, kind: 'string' });
}

let grammarLoads: Promise<unknown> = Promise.resolve();

/**
 * Runs grammar loads one after another. The runtime links each grammar into one shared symbol
 * table across awaits; two loads at once mix their symbols up (loading typescript and tsx together
 * fails with "bad export type for 'tree_sitter_tsx_external_scanner_create'").
 */
function oneAtATime<T>(load: () => Promise<T>): Promise<T> {
  const next = grammarLoads.then(load);
  grammarLoads = next.catch(() => undefined);
  return next;
}

const runtimes = new Map<string, Promise<TreeSitterModule>>();

/**
 * web-tree-sitter, required and initialised from `fromDir` (default this file's folder), its own
 * `.wasm` located the same way. Each copy of the package is initialised once per process:
 * `Parser.init` builds a fresh WebAssembly instance each time, and grammars belong to the instance
 * that loaded them. Rejects when the package is missing or its `.wasm` does not instantiate.
 */
export function loadWebTreeSitter(fromDir = __dirname): Promise<TreeSitterModule> {
  const requireHere = createRequire(path.join(fromDir, 'noop.js'));
  let entry: string;
  try {
    entry = requireHere.resolve('web-tree-sitter');
  } catch (err) {
    return Promise.reject(err);
  }
  let runtime = runtimes.get(entry);
  if (!runtime) {
    runtime = (async () => {
      const module = requireHere(entry) as typeof TreeSitter;
      const wasm = requireHere.resolve('web-tree-sitter/web-tree-sitter.wasm');
      // Emscripten prints to stdout by default, which carries the protocol in stdio mode.
      const toStderr = (line: string) => process.stderr.write(`web-tree-sitter: ${line}\n`);
      await module.Parser.init({ locateFile: () => wasm, print: toStderr, printErr: toStderr });
      return module;
    })();
    runtimes.set(entry, runtime);
  }
  return runtime;
}

/** `tree-sitter-wasms/out`, found from `fromDir` (default this file's folder). */
export function defaultGrammarDir(fromDir = __dirname): string {
  const requireHere = createRequire(path.join(fromDir, 'noop.js'));
  return path.join(path.dirname(requireHere.resolve('tree-sitter-wasms/package.json')), 'out');
}

function firstLine(err: unknown): string {
  const message = err instanceof Error ? err.message || err.name : String(err);
  return message.split('\n')[0];
}

let shared: SyntaxTrees | undefined;

/** The process's tree-sitter service (one runtime, one parser per language). */
export function sharedSyntaxTrees(): SyntaxTrees {
  shared ??= new SyntaxTrees();
  return shared;
}

/** {@link SyntaxTrees.commentAndStringRanges} on the shared service. */
export function commentAndStringRanges(path: string, text: string): Promise<TextRange[] | null> {
  return sharedSyntaxTrees().commentAndStringRanges(path, text);
}

/** Whether tree-sitter runs here, and why not when it does not (for the index status). */
export function syntaxStatus(): SyntaxStatus {
  return sharedSyntaxTrees().status();
}

/** Where the shared service says, once each, why the runtime or a grammar did not load. */
export function setSyntaxLog(log: ((message: string) => void) | undefined): void {
  sharedSyntaxTrees().setLog(log);
}
