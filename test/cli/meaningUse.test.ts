import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { wsctx } from '../helpers/cli';
import { EXAMPLE_WORKSPACE } from '../helpers/tempWorkspace';

const WS = ['--workspace', EXAMPLE_WORKSPACE];

/**
 * Which commands load the embedding model, seen from outside: an engine with an embedder opens its
 * vector cache (`<cache>/vectors/`), and a worker that loads MiniLM on ONNX Runtime writes the
 * assembled model (`<cache>/models/*.onnx`) the first time.
 */
describe('wsctx: meaning only where a command uses it', function () {
  this.timeout(300_000);
  const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'wsctx-meaning-'));
  const env = { WSCTX_EMBEDDINGS: 'local', WSCTX_CACHE_DIR: cache };
  const has = (folder: string) => fs.existsSync(path.join(cache, folder));
  after(() => fs.rmSync(cache, { recursive: true, force: true }));

  it('graph, expand, toc and diagnostics never create an embedder, so no model worker starts', () => {
    for (const args of [['graph'], ['expand', 'component:billing-worker'], ['toc'], ['diagnostics']]) {
      const run = wsctx([...args, ...WS], { env });
      assert.equal(run.code, 0, `${args[0]}: ${run.stderr}`);
      assert.equal(has('vectors'), false, `${args[0]} opened the vector cache`);
      assert.equal(has('models'), false, `${args[0]} loaded the model`);
    }
  });

  it('ask on a workspace without vectors answers on words at once, says how long meaning takes, and loads no model', () => {
    const run = wsctx(['ask', 'who owns billing-worker?', ...WS, '--limit', '3'], { env });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^1\. \d\.\d{3}  /);
    assert.match(run.stdout, /meaning local:all-minilm-l6-v2\+onnx-int8-g3@0\.1\.0, 353 sections without vectors/);
    assert.match(
      run.stderr,
      /^wsctx: 353 of 353 sections have no vectors yet, so this answer ranked them on words alone; run 'wsctx index' to embed them \(about \d+ (s|min) at ~\d+ sections\/s here\)\.$/m,
    );
    assert.equal(has('models'), false);
  });

  it('index embeds with progress on ONNX Runtime; afterwards ask ranks with every vector and says nothing is missing', () => {
    const index = wsctx(['index', ...WS], { env });
    assert.equal(index.code, 0, index.stderr);
    assert.match(
      index.stderr,
      /^embedding with local:all-minilm-l6-v2\+onnx-int8-g3@0\.1\.0 \(onnxruntime-node 1\.30\.0, int8, \d+ x \d+ threads\)$/m,
    );
    assert.match(
      index.stdout,
      /Meaning: 353 of 353 sections embedded with local:all-minilm-l6-v2\+onnx-int8-g3@0\.1\.0 on onnxruntime-node 1\.30\.0, int8/,
    );
    // Both workers may build it at first start; a later one's temporary file can still be there.
    assert.deepEqual(
      fs.readdirSync(path.join(cache, 'models')).filter((f) => !f.endsWith('.tmp')),
      ['minilm-int8-0.1.0-g3.onnx'],
    );

    const ask = wsctx(['ask', 'what happens when a card payment keeps failing?', ...WS, '--limit', '3'], { env });
    assert.equal(ask.code, 0, ask.stderr);
    assert.doesNotMatch(ask.stderr, /have no vectors/);
    assert.doesNotMatch(ask.stdout, /without vectors/);
    assert.match(ask.stdout, /meaning local:all-minilm-l6-v2\+onnx-int8-g3@0\.1\.0/);
  });
});
