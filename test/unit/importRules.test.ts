/**
 * The layering rules of docs/ARCHITECTURE.md ("Code map"), read from the sources themselves: a
 * test that fails the moment the engine imports an editor or protocol package, code outside the
 * engine reaches past its front door (engine/index.ts), a layer reaches past its neighbour, a
 * host imports another host's entry, `engine.ts` reaches up into server/src/library, or the
 * imports close a cycle, between files or between folders.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

interface Rule {
  /** Folder or file (relative to the project root) whose files the rule applies to. */
  layer: string;
  /** Files of the layer the rule does not apply to (they have a rule of their own). */
  except?: string[];
  /** Package names (exact or prefix ending in '/' or '*') the layer must not import. */
  forbiddenPackages: string[];
  /** Project folders the layer must not import from. */
  forbiddenFolders: string[];
}

const PROTOCOL_SDKS = ['vscode', 'vscode-languageserver*', 'vscode-languageclient*', '@modelcontextprotocol/'];

/** The executables' entry files: nothing imports them (esbuild.mjs bundles each on its own). */
const ENTRIES = [
  'server/src/cli/main.ts',
  'server/src/mcp/main.ts',
  'server/src/mcp/proxy.ts',
  'server/src/lsp/main.ts',
];
/** The layers above the engine, in the order they may import each other (each only those before it). */
const ABOVE_ENGINE = [
  'server/src/services',
  'server/src/tools',
  'server/src/rest',
  'server/src/startup',
  'server/src/mcp',
  'server/src/cli',
  'server/src/lsp',
];
/** The engine's front door: the only engine file code outside server/src/engine may import. */
const DOOR = 'server/src/engine/index.ts';

const RULES: Rule[] = [
  {
    layer: 'server/src/engine',
    // A store's database client lives in server/src/store/ (engine/store/indexStore.ts is the interface).
    forbiddenPackages: [...PROTOCOL_SDKS, 'pg', '@electric-sql/'],
    forbiddenFolders: [...ABOVE_ENGINE, 'server/src/library', 'server/src/store', 'shared', 'client'],
  },
  // What is built on the index (get_context, the library tools, model steps, the call log): the
  // engine through its door, nothing above it, no protocol, no database.
  {
    layer: 'server/src/library',
    forbiddenPackages: [...PROTOCOL_SDKS, 'pg', '@electric-sql/'],
    forbiddenFolders: [...ABOVE_ENGINE, 'server/src/store', 'shared', 'client'],
  },
  // The PostgreSQL store: the engine's store interface over `pg`; no tool, no host.
  {
    layer: 'server/src/store',
    forbiddenPackages: PROTOCOL_SDKS,
    forbiddenFolders: [...ABOVE_ENGINE, 'shared', 'client'],
  },
  // The composition root's value: the engine and the collaborators tools take; no tool, no host.
  {
    layer: 'server/src/services',
    forbiddenPackages: [...PROTOCOL_SDKS, 'pg'],
    forbiddenFolders: [
      'server/src/tools',
      'server/src/rest',
      'server/src/startup',
      'server/src/mcp',
      'server/src/cli',
      'server/src/lsp',
      'server/src/store',
      'shared',
      'client',
    ],
  },
  {
    layer: 'server/src/tools',
    forbiddenPackages: [...PROTOCOL_SDKS, 'pg'],
    forbiddenFolders: [
      'server/src/rest',
      'server/src/startup',
      'server/src/lsp',
      'server/src/mcp',
      'server/src/cli',
      'server/src/store',
      'client',
    ],
  },
  // The REST API over the tools: plain HTTP handlers a host mounts (mcp/http.ts routes); no
  // protocol SDK, no transport, no host, no startup.
  {
    layer: 'server/src/rest',
    forbiddenPackages: [...PROTOCOL_SDKS, 'pg'],
    forbiddenFolders: [
      'server/src/startup',
      'server/src/mcp',
      'server/src/cli',
      'server/src/lsp',
      'server/src/store',
      ...ENTRIES,
      'client',
    ],
  },
  // The startup wsctx and the stdio MCP server share: it may serve MCP, but is no host itself.
  {
    layer: 'server/src/startup',
    forbiddenPackages: ['vscode', 'vscode-languageserver*', 'vscode-languageclient*', '@modelcontextprotocol/'],
    forbiddenFolders: ['server/src/cli', 'server/src/lsp', ...ENTRIES, 'client'],
  },
  // The MCP adapter (server, tool registration, transports) is used by the hosts and knows none
  // of them; routes beside MCP on its HTTP server (the REST API) are given to it, never imported.
  {
    layer: 'server/src/mcp',
    except: ['server/src/mcp/main.ts'],
    forbiddenPackages: ['vscode', 'vscode-languageserver*', 'vscode-languageclient*'],
    forbiddenFolders: [
      'server/src/rest',
      'server/src/startup',
      'server/src/cli',
      'server/src/lsp',
      ...ENTRIES,
      'client',
    ],
  },
  // The stdio MCP executable is its startup and nothing else: it does not reach into the CLI.
  {
    layer: 'server/src/mcp/main.ts',
    forbiddenPackages: PROTOCOL_SDKS,
    forbiddenFolders: [
      'server/src/cli',
      'server/src/lsp',
      'server/src/engine',
      'server/src/services',
      'server/src/tools',
      'server/src/mcp',
      'client',
    ],
  },
  // wsctx serves stdio MCP through the shared startup, never through the stdio transport or the MCP entry.
  {
    layer: 'server/src/cli',
    forbiddenPackages: PROTOCOL_SDKS,
    forbiddenFolders: [
      'server/src/lsp',
      'server/src/mcp/stdio.ts',
      ...ENTRIES.filter((e) => e !== 'server/src/cli/main.ts'),
      'client',
    ],
  },
  {
    layer: 'server/src/lsp',
    forbiddenPackages: ['vscode', 'vscode-languageclient*', '@modelcontextprotocol/'],
    forbiddenFolders: [
      'server/src/cli',
      'server/src/startup',
      ...ENTRIES.filter((e) => e !== 'server/src/lsp/main.ts'),
      'client',
    ],
  },
  {
    layer: 'client/src',
    forbiddenPackages: ['vscode-languageserver', 'vscode-languageserver/', '@modelcontextprotocol/'],
    forbiddenFolders: ['server'],
  },
  { layer: 'shared', forbiddenPackages: ['vscode', ...PROTOCOL_SDKS.slice(1)], forbiddenFolders: ['server', 'client'] },
];

const IMPORT_PATTERN =
  /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|require\s*\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s*['"]([^'"]+)['"]/gm;

export function importsOf(source: string): string[] {
  const found: string[] = [];
  for (const match of source.matchAll(IMPORT_PATTERN)) found.push(match[1] ?? match[2] ?? match[3] ?? match[4]);
  return found;
}

function matchesPackage(specifier: string, pattern: string): boolean {
  if (pattern.endsWith('*')) return specifier.startsWith(pattern.slice(0, -1));
  if (pattern.endsWith('/')) return specifier.startsWith(pattern);
  return specifier === pattern || specifier.startsWith(`${pattern}/`);
}

/** Violations of `rule` in one file's source text. */
export function violations(rule: Rule, fileRel: string, source: string): string[] {
  const found: string[] = [];
  for (const specifier of importsOf(source)) {
    if (specifier.startsWith('.')) {
      const target = path
        .relative(ROOT, path.resolve(ROOT, path.dirname(fileRel), specifier))
        .split(path.sep)
        .join('/');
      const folder = rule.forbiddenFolders.find(
        (f) => target === f || `${target}.ts` === f || target.startsWith(`${f}/`),
      );
      if (folder) found.push(`${fileRel} imports '${specifier}' (in ${folder})`);
    } else if (!specifier.startsWith('node:')) {
      const pkg = rule.forbiddenPackages.find((p) => matchesPackage(specifier, p));
      if (pkg) found.push(`${fileRel} imports package '${specifier}'`);
    }
  }
  return found;
}

function sourceFiles(dirRel: string): string[] {
  const abs = path.join(ROOT, dirRel);
  if (!fs.existsSync(abs)) return [];
  if (fs.statSync(abs).isFile()) return [dirRel];
  return (fs.readdirSync(abs, { recursive: true }) as string[])
    .filter((f) => f.endsWith('.ts'))
    .map((f) => path.join(dirRel, f).split(path.sep).join('/'));
}

/** Native and WASM modules are touched by one file each, behind an interface with a fallback. */
const SINGLE_OWNER: Record<string, string> = {
  'hnswlib-node': 'server/src/engine/vector/hnswIndex.ts',
  'web-tree-sitter': 'server/src/engine/parsing/syntaxTree.ts',
  pg: 'server/src/store/postgres/pgStore.ts',
};

/** The project files a source imports (relative specifiers resolved to `.ts` files), type-only imports included. */
function localImports(fileRel: string, source: string, known: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const specifier of importsOf(source)) {
    if (!specifier.startsWith('.')) continue;
    const target = path
      .relative(ROOT, path.resolve(ROOT, path.dirname(fileRel), specifier))
      .split(path.sep)
      .join('/');
    const file = [`${target}.ts`, `${target}/index.ts`, target].find((f) => known.has(f));
    if (file) out.push(file);
  }
  return out;
}

/** The import graph of the server's sources: file -> the files it imports. */
function serverImportGraph(): Map<string, string[]> {
  const files = sourceFiles('server/src');
  const known = new Set(files);
  return new Map(files.map((f) => [f, localImports(f, fs.readFileSync(path.join(ROOT, f), 'utf8'), known)]));
}

/** The import cycles of `graph`: its strongly connected components of two or more files (Tarjan). */
export function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1) cycles.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return cycles;
}

/** Every file `start` imports, directly or not. */
function reachable(graph: ReadonlyMap<string, readonly string[]>, start: string): Set<string> {
  const seen = new Set<string>();
  const todo = [start];
  while (todo.length > 0) {
    for (const next of graph.get(todo.pop()!) ?? []) {
      if (seen.has(next)) continue;
      seen.add(next);
      todo.push(next);
    }
  }
  return seen;
}

/**
 * Folders whose own files may still import each other in a circle (older code of other areas:
 * file sources, embedders, vector indexes, model prompts). A cycle is tolerated only when all of
 * its files lie in one of these folders; any other cycle fails, and so does one through
 * engine.ts, get_context, the library tools, the meaning modules, the services, tools or hosts.
 */
/**
 * Imports of engine files other than the door by files outside server/src/engine (server code
 * only: tests and the bench may reach into the engine to test its parts).
 */
export function pastTheDoor(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const found: string[] = [];
  for (const [file, imports] of graph) {
    if (file.startsWith('server/src/engine/')) continue;
    for (const target of imports)
      if (target.startsWith('server/src/engine/') && target !== DOOR) found.push(`${file} imports ${target}`);
  }
  return found;
}

/** Folders whose subfolders are layers of their own: each subfolder is one unit, each file at their root another. */
const SPLIT_FOLDERS = ['server/src/engine', 'server/src/library'];

/**
 * The folder a file belongs to for the folder-level cycle check: a subfolder of the engine or the
 * library (`server/src/engine/indexing`, `sources/catalog` counted with `sources`), a file at their
 * root on its own (engine.ts, model.ts, the door), any other area of server/src whole
 * (`server/src/cli` with its commands). An executable's entry file is its own unit: it is the
 * top of the graph (it imports its startup), not part of the layer its folder holds.
 */
export function folderOf(file: string): string {
  if (ENTRIES.includes(file)) return file;
  for (const root of SPLIT_FOLDERS) {
    if (!file.startsWith(`${root}/`)) continue;
    const rest = file.slice(root.length + 1).split('/');
    return rest.length === 1 ? file : `${root}/${rest[0]}`;
  }
  return file.split('/').slice(0, 3).join('/');
}

/** The import graph between folders (see {@link folderOf}): folder -> the other folders its files import. */
export function folderGraph(graph: ReadonlyMap<string, readonly string[]>): Map<string, string[]> {
  const folders = new Map<string, Set<string>>();
  for (const [file, imports] of graph) {
    const from = folderOf(file);
    const targets = folders.get(from) ?? folders.set(from, new Set()).get(from)!;
    for (const target of imports) if (folderOf(target) !== from) targets.add(folderOf(target));
  }
  return new Map([...folders].map(([folder, targets]) => [folder, [...targets].sort()]));
}

const TOLERATED_CYCLE_FOLDERS = [
  'server/src/engine/workspace',
  'server/src/engine/embeddings',
  'server/src/engine/vector',
  'server/src/library/models',
];

/** The layers that read an index through WorkspaceIndex and must not learn how it is kept. */
const BACKEND_BLIND = [
  'server/src/tools',
  'server/src/library',
  'server/src/services',
  'server/src/mcp',
  'server/src/rest',
];

/** A name that tells a kind of index apart: a store's readers or index, or a subclass of the in-memory engine. */
const BACKEND_NAME =
  /\b(StoreReader|MemoryReader|StoreIndex|storeReaderOf|memoryReaderOf|storeBackedOf)\b|\bextends\s+Engine\b/g;

/** Where `source` (of `fileRel`) names a kind of index, or subclasses the engine outside it. */
export function backendTells(fileRel: string, source: string): string[] {
  const blind = BACKEND_BLIND.some((layer) => fileRel.startsWith(`${layer}/`));
  const outsideEngine = !fileRel.startsWith('server/src/engine/');
  const found: string[] = [];
  for (const match of source.matchAll(BACKEND_NAME)) {
    const subclass = match[1] === undefined;
    if (subclass ? outsideEngine : blind) found.push(`${fileRel}: ${match[0]}`);
  }
  return found;
}

describe('import rules (docs/ARCHITECTURE.md, code map)', () => {
  it('lets exactly one file touch each native or WASM module', () => {
    const files = ['server/src', 'client/src', 'shared'].flatMap(sourceFiles);
    for (const [pkg, owner] of Object.entries(SINGLE_OWNER)) {
      const users = files.filter((file) => {
        const source = fs.readFileSync(path.join(ROOT, file), 'utf8');
        return importsOf(source).some((s) => s === pkg || s.startsWith(`${pkg}/`)) || source.includes(`'${pkg}'`);
      });
      assert.deepEqual(users, [owner], `${pkg} is used by ${users.join(', ')}`);
    }
  });

  it('detects a violation in a crafted source (the check can fail)', () => {
    const engineRule = RULES[0];
    const bad = [
      "import * as vscode from 'vscode';",
      "import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';",
      "import { createConnection } from 'vscode-languageserver/node';",
      "import { TOOLS } from '../tools/registry';",
      "const x = require('../../../shared/ids');",
      "import { ok } from './fine';",
      "import * as fs from 'node:fs';",
    ].join('\n');
    assert.deepEqual(violations(engineRule, 'server/src/engine/example.ts', bad), [
      "server/src/engine/example.ts imports package 'vscode'",
      "server/src/engine/example.ts imports package '@modelcontextprotocol/sdk/server/mcp.js'",
      "server/src/engine/example.ts imports package 'vscode-languageserver/node'",
      "server/src/engine/example.ts imports '../tools/registry' (in server/src/tools)",
      "server/src/engine/example.ts imports '../../../shared/ids' (in shared)",
    ]);
  });

  for (const rule of RULES) {
    it(`${rule.layer} respects its imports`, () => {
      const files = sourceFiles(rule.layer).filter((f) => !rule.except?.includes(f));
      if (rule.layer === 'server/src/engine') assert.ok(files.length > 20, 'the engine sources are found');
      const problems = files.flatMap((file) => violations(rule, file, fs.readFileSync(path.join(ROOT, file), 'utf8')));
      assert.deepEqual(problems, []);
    });
  }

  it('keeps engine.ts below get_context and the library tools: nothing it imports, directly or not, is in server/src/library', () => {
    const graph = serverImportGraph();
    assert.ok(graph.has('server/src/engine/engine.ts'), 'engine.ts is found');
    const below = [...reachable(graph, 'server/src/engine/engine.ts')];
    assert.ok(below.includes('server/src/engine/meaning/textSimilarity.ts'), 'the walk follows imports');
    assert.deepEqual(
      below.filter((f) => /^server\/src\/library\//.test(f)),
      [],
    );
  });

  it('finds a crafted import cycle (the check can fail)', () => {
    const crafted = new Map([
      ['engine.ts', ['context/hooks.ts']],
      ['context/hooks.ts', ['library/pinned.ts']],
      ['library/pinned.ts', ['engine.ts', 'text.ts']],
      ['text.ts', []],
    ]);
    assert.deepEqual(importCycles(crafted), [['context/hooks.ts', 'engine.ts', 'library/pinned.ts']]);
  });

  it('lets code outside the engine import only its front door (server/src/engine/index.ts)', () => {
    const graph = serverImportGraph();
    assert.ok(graph.has(DOOR), 'the door is found');
    assert.ok(
      [...graph.keys()].some((f) => f.startsWith('server/src/library/')),
      'the library sources are found',
    );
    assert.deepEqual(pastTheDoor(graph), []);
  });

  it('finds an import past the door in a crafted graph (the check can fail)', () => {
    const crafted = new Map([
      ['server/src/tools/getToc.ts', ['server/src/engine/index.ts', 'server/src/engine/indexState.ts']],
      ['server/src/engine/engine.ts', ['server/src/engine/indexState.ts']],
      ['server/src/library/view/search.ts', ['server/src/engine/text/analyzer.ts']],
    ]);
    assert.deepEqual(pastTheDoor(crafted), [
      'server/src/tools/getToc.ts imports server/src/engine/indexState.ts',
      'server/src/library/view/search.ts imports server/src/engine/text/analyzer.ts',
    ]);
  });

  it('finds a cycle between folders whose files form none (the check can fail)', () => {
    // indexing/indexer.ts -> persistence/snapshot.ts and persistence/snapshot.ts -> indexing/fileTable.ts: no file cycle, a folder cycle.
    const crafted = new Map([
      ['server/src/engine/indexing/indexer.ts', ['server/src/engine/persistence/snapshot.ts']],
      ['server/src/engine/persistence/snapshot.ts', ['server/src/engine/indexing/fileTable.ts']],
      ['server/src/engine/indexing/fileTable.ts', []],
      ['server/src/mcp/main.ts', ['server/src/startup/startup.ts']],
      ['server/src/startup/startup.ts', ['server/src/mcp/stdio.ts']],
      ['server/src/mcp/stdio.ts', []],
    ]);
    assert.deepEqual(importCycles(crafted), []);
    assert.deepEqual(importCycles(folderGraph(crafted)), [
      ['server/src/engine/indexing', 'server/src/engine/persistence'],
    ]);
  });

  it('has no import cycle between folders (each engine and library subfolder, each other area of server/src)', () => {
    const folders = folderGraph(serverImportGraph());
    assert.ok(
      folders.has('server/src/engine/indexing') &&
        folders.has('server/src/library/context') &&
        folders.has('server/src/cli'),
      'the folders are found',
    );
    assert.deepEqual(importCycles(folders), []);
  });

  it('has no import cycle, except inside one of the tolerated folders', () => {
    const cycles = importCycles(serverImportGraph());
    const tolerated = (cycle: readonly string[]) =>
      TOLERATED_CYCLE_FOLDERS.some((folder) => cycle.every((f) => path.posix.dirname(f) === folder));
    assert.deepEqual(
      cycles.filter((c) => !tolerated(c)),
      [],
    );
  });

  it('keeps the tools, the library, the services and the MCP host blind to how the index is kept (no store reader named, no Engine subclass anywhere)', () => {
    const found = ['server/src', 'test', 'bench']
      .flatMap((dir) => sourceFiles(dir))
      // This file names them in its crafted cases.
      .filter((file) => file !== 'test/unit/importRules.test.ts')
      .flatMap((file) => backendTells(file, fs.readFileSync(path.join(ROOT, file), 'utf8')));
    assert.deepEqual(found, []);
  });

  it('finds a tool that asks for the store reader and a store engine that subclasses Engine (the check can fail)', () => {
    assert.deepEqual(backendTells('server/src/tools/queryState.ts', 'const reader = storeReaderOf(engine);'), [
      'server/src/tools/queryState.ts: storeReaderOf',
    ]);
    assert.deepEqual(
      backendTells(
        'server/src/cli/commands/storeCommand.ts',
        'class StoreBackedEngine extends Engine implements StoreBacked {',
      ),
      ['server/src/cli/commands/storeCommand.ts: extends Engine'],
    );
    assert.deepEqual(backendTells('server/src/cli/commands/storeCommand.ts', 'new StoreReader(store)'), []);
  });
});
