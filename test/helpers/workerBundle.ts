/**
 * A worker entry bundled as esbuild.mjs bundles it, beside a probe host bundle, in a folder laid
 * out like an installed extension or the npm package (`<root>/dist/*.js`), and the probe run
 * there: how the worker bundle tests check that a host finds its worker in `dist/`.
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import * as esbuild from 'esbuild';

const REPO = path.resolve(__dirname, '../..');

export interface WorkerBundleRun {
  /** The worker's source, its bundle's name (`<name>.js` in dist/) taken from it. */
  worker: string;
  /** The probe host's TypeScript source, resolved from the worker's folder. */
  probe: string;
  /** Packages left out of the bundles (the model packages), read from `<root>/node_modules`. */
  external?: string[];
  args?: string[];
}

export async function runBesideWorker(run: WorkerBundleRun): Promise<{ stdout: string; stderr: string }> {
  const options: esbuild.BuildOptions = {
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    logLevel: 'silent',
    ...(run.external ? { external: run.external } : {}),
  };
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'wsctx-bundle-'));
  try {
    const dist = path.join(root, 'dist');
    if (run.external) fs.symlinkSync(path.join(REPO, 'node_modules'), path.join(root, 'node_modules'), 'dir');
    await esbuild.build({
      ...options,
      entryPoints: [run.worker],
      outfile: path.join(dist, `${path.basename(run.worker, '.ts')}.js`),
    });
    await esbuild.build({
      ...options,
      stdin: { contents: run.probe, loader: 'ts', resolveDir: path.dirname(run.worker) },
      outfile: path.join(dist, 'probe.js'),
    });
    return await promisify(execFile)(process.execPath, [path.join(dist, 'probe.js'), ...(run.args ?? [])], {
      cwd: root,
      maxBuffer: 16 * 1024 * 1024,
    });
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}
