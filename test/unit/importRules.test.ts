/**
 * The layering rules of DESIGN.md section 9, read from the sources themselves: a test that fails
 * the moment the engine imports an editor or protocol package, or a layer reaches past its
 * neighbour.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

interface Rule {
  /** Folder (relative to the project root) whose files the rule applies to. */
  layer: string;
  /** Package names (exact or prefix ending in '/' or '*') the layer must not import. */
  forbiddenPackages: string[];
  /** Project folders the layer must not import from. */
  forbiddenFolders: string[];
}

const PROTOCOL_SDKS = ['vscode', 'vscode-languageserver*', 'vscode-languageclient*', '@modelcontextprotocol/'];

const RULES: Rule[] = [
  {
    layer: 'server/src/engine',
    // A store's database client lives in server/src/store/ (engine/store/indexStore.ts is the interface).
    forbiddenPackages: [...PROTOCOL_SDKS, 'pg', '@electric-sql/'],
    forbiddenFolders: ['server/src/tools', 'server/src/lsp', 'server/src/mcp', 'server/src/cli', 'server/src/store', 'shared', 'client'],
  },
  { layer: 'server/src/tools', forbiddenPackages: [...PROTOCOL_SDKS, 'pg'], forbiddenFolders: ['server/src/lsp', 'server/src/mcp', 'server/src/cli', 'server/src/store', 'client'] },
  { layer: 'server/src/store', forbiddenPackages: PROTOCOL_SDKS, forbiddenFolders: ['server/src/tools', 'server/src/lsp', 'server/src/mcp', 'server/src/cli', 'shared', 'client'] },
  { layer: 'server/src/mcp', forbiddenPackages: ['vscode', 'vscode-languageserver*', 'vscode-languageclient*'], forbiddenFolders: ['server/src/lsp', 'client'] },
  { layer: 'server/src/cli', forbiddenPackages: PROTOCOL_SDKS, forbiddenFolders: ['server/src/lsp', 'client'] },
  { layer: 'server/src/lsp', forbiddenPackages: ['vscode', 'vscode-languageclient*', '@modelcontextprotocol/'], forbiddenFolders: ['server/src/cli', 'client'] },
  { layer: 'client/src', forbiddenPackages: ['vscode-languageserver', 'vscode-languageserver/', '@modelcontextprotocol/'], forbiddenFolders: ['server'] },
  { layer: 'shared', forbiddenPackages: ['vscode', ...PROTOCOL_SDKS.slice(1)], forbiddenFolders: ['server', 'client'] },
];

const IMPORT_PATTERN = /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|require\s*\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s*['"]([^'"]+)['"]/gm;

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
      const target = path.relative(ROOT, path.resolve(ROOT, path.dirname(fileRel), specifier)).split(path.sep).join('/');
      const folder = rule.forbiddenFolders.find((f) => target === f || target.startsWith(`${f}/`));
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

describe('import rules (DESIGN.md section 9)', () => {
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
      const files = sourceFiles(rule.layer);
      if (rule.layer === 'server/src/engine') assert.ok(files.length > 20, 'the engine sources are found');
      const problems = files.flatMap((file) => violations(rule, file, fs.readFileSync(path.join(ROOT, file), 'utf8')));
      assert.deepEqual(problems, []);
    });
  }
});
