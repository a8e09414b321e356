/**
 * Checks that an installed extension carries the node_modules its bundles leave external (native
 * addons, WASM, model weights) and that they load from the extension's own folder under the
 * extension host's Node (24), never from a node_modules further up the tree.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { node24 } from './paths';

/** The `runtimeExternal` list of esbuild.mjs: the packages the VSIX must ship. */
export function runtimeExternals(esbuildFile: string): string[] {
  const source = readFileSync(esbuildFile, 'utf8');
  const list = /const runtimeExternal = \[([^\]]*)\]/.exec(source)?.[1];
  if (list === undefined) throw new Error(`e2e: no \`const runtimeExternal = [...]\` in ${esbuildFile}`);
  return [...list.matchAll(/'([^']+)'/g)].map((m) => m[1] as string);
}

export interface ModuleLoad {
  name: string;
  /** `loaded` (required), `data` (no entry point, files only: WASM grammars), or `missing`. */
  status: 'loaded' | 'data' | 'missing';
  detail: string;
}

// An ES module run by Node 24 inside the extension folder. A resolve hook records every file
// loaded, through require or import, so files found outside the folder (in a node_modules
// further up the tree) show up as `outside`. CommonJS packages are required; packages that
// only export `import` are imported; packages with no entry point at all are data (WASM, weights).
const PROBE = `
import fs from 'node:fs';
import path from 'node:path';
import { createRequire, registerHooks } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
const [extDir, names] = [process.argv[1], JSON.parse(process.argv[2])];
const loaded = new Set();
registerHooks({ resolve(specifier, context, next) { const r = next(specifier, context); loaded.add(r.url); return r; } });
const require = createRequire(path.join(extDir, 'probe.js'));
const inside = (file) => file.startsWith(extDir + path.sep);
const results = [];
for (const name of names) {
  const dir = path.join(extDir, 'node_modules', name);
  if (!fs.existsSync(path.join(dir, 'package.json'))) { results.push({ name, status: 'missing', detail: dir + ' has no package.json' }); continue; }
  let entry;
  let esm = false;
  try {
    entry = require.resolve(name);
  } catch (error) {
    if (error.code === 'ERR_PACKAGE_PATH_NOT_EXPORTED') {
      entry = fileURLToPath(import.meta.resolve(name, pathToFileURL(path.join(extDir, 'probe.mjs')).href));
      esm = true;
    } else {
      const files = fs.readdirSync(dir, { recursive: true }).filter((f) => !/^(package\\.json|LICENSE.*|README.*)$/.test(f));
      results.push(error.code === 'MODULE_NOT_FOUND' && files.length > 0
        ? { name, status: 'data', detail: files.length + ' files, no entry point' }
        : { name, status: 'missing', detail: 'no entry point: ' + String(error.message).split('\\n')[0] });
      continue;
    }
  }
  if (!inside(entry)) { results.push({ name, status: 'missing', detail: 'resolved outside the extension: ' + entry }); continue; }
  try {
    if (esm) await import(pathToFileURL(entry).href); else require(entry);
    results.push({ name, status: 'loaded', detail: path.relative(extDir, entry) });
  } catch (error) {
    results.push({ name, status: 'missing', detail: 'loading failed: ' + String(error.message).split('\\n')[0] });
  }
}
const outside = [...loaded].filter((u) => u.startsWith('file:')).map((u) => fileURLToPath(u)).filter((f) => !inside(f));
process.stdout.write(JSON.stringify({ results, outside }));
`;

/**
 * Loads each module from `extensionDir` with Node 24 (the extension host's) and reports how
 * each loaded, plus every file that came from outside the folder.
 */
export function loadFromExtension(extensionDir: string, names: string[]): { results: ModuleLoad[]; outside: string[] } {
  const run = spawnSync(node24, ['--input-type=module', '-e', PROBE, extensionDir, JSON.stringify(names)], {
    cwd: extensionDir,
    encoding: 'utf8',
    timeout: 120_000,
    // NODE_PATH would let a missing module load from elsewhere.
    env: { ...process.env, NODE_PATH: '' },
  });
  if (run.status !== 0) throw new Error(`e2e: module probe failed (${run.status ?? run.signal}): ${run.stderr}`);
  return JSON.parse(run.stdout) as { results: ModuleLoad[]; outside: string[] };
}
