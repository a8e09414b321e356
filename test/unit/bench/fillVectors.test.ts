/**
 * The bench's vector fill: an engine started with embeddings on over a filled cache folder has
 * every section's vector at once, embeds nothing, and finds a section by the very vector the fill
 * gave it.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Engine } from '../../../server/src/engine/engine';
import { MINILM_MAX_INPUT_TOKENS } from '../../../server/src/engine/embeddings/localModels';
import { splitWindows } from '../../../server/src/engine/embeddings/windows';
import { embeddingText } from '../../../server/src/engine/meaning/sectionVectors';
import { fillVectorCache, planWindows } from '../../../bench/fillVectors';
import { grownVector, syntheticPool } from '../../../bench/standinVectors';

const EXAMPLE = path.resolve(__dirname, '../../../examples/fernhill');

describe('bench fillVectorCache', function () {
  this.timeout(60_000);
  let scratch: string;
  let folders: { name: string; absPath: string }[];
  before(() => {
    scratch = mkdtempSync(path.join(os.tmpdir(), 'wsctx-fill-'));
    cpSync(EXAMPLE, path.join(scratch, 'fernhill'), { recursive: true });
    folders = [{ name: 'fernhill', absPath: path.join(scratch, 'fernhill') }];
  });
  after(() => rmSync(scratch, { recursive: true, force: true }));

  it('plans the windows the engine embeds and gives every section its vectors through the cache', async () => {
    const off = new Engine({ folders, settings: { useGit: false }, embeddings: { provider: 'off' } });
    const state = await off.waitForIndex();
    off.dispose();
    const plan = planWindows(state);
    const live = state.sections.filter((e) => e !== undefined);
    assert.equal(plan.sections, live.length);
    assert.equal(
      plan.windows,
      live.reduce((n, e) => n + splitWindows(embeddingText(e), { maxTokens: MINILM_MAX_INPUT_TOKENS }).length, 0),
    );
    assert.ok(plan.digests.length <= plan.windows && new Set(plan.digests).size === plan.digests.length);

    const pool = syntheticPool(1);
    const cacheDir = path.join(scratch, 'cache');
    const filled = fillVectorCache(state, cacheDir, (i) => grownVector(pool, i, 1));
    assert.deepEqual(filled, plan);

    const engine = new Engine({ folders, settings: { useGit: false }, cacheDir, embeddings: { provider: 'local' } });
    try {
      const served = await engine.waitForIndex();
      const meaning = engine.status().meaning!;
      assert.equal(meaning.sectionsPending, 0, 'nothing left to embed');
      assert.equal(meaning.sectionsWithVectors, live.length);
      assert.equal(meaning.embedding, null);
      // The first window of the first section got pool row 0: asking with it finds that section first.
      const first = served.sections.find((e) => e !== undefined)!;
      const source = engine.meaningSource(served, grownVector(pool, 0, 1))!;
      assert.equal(source.nearest[0], first.ordinal);
      assert.ok(Math.abs(source.cosine(first.ordinal)! - 1) < 1e-5);
    } finally {
      engine.dispose();
    }
  });
});
