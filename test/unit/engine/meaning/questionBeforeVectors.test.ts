/**
 * A question asked before any section has a vector is answered at once, on words, without waiting
 * for the embedding model: its vector would be compared with nothing. Checked against an
 * OpenAI-compatible endpoint that never answers (a model still loading, a slow server): the answer
 * comes anyway, ranked exactly as on words alone, each passage's meaning saying "no embedding yet".
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Engine } from '../../../../server/src/engine/engine';
import { askEngine } from './askEngine';
import { removeTempDirs, tempDir, write } from '../../../helpers/tempWorkspace';

describe('a question before any section has a vector', function () {
  // Well under the endpoint's timeout: an answer that waited for the endpoint would not come in time.
  this.timeout(20_000);
  let server: Server;
  let heard = 0;
  before(async () => {
    // Takes every request and never answers it.
    server = createServer(() => {
      heard++;
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    removeTempDirs();
  });

  it('is answered on words at once while the embedding model cannot answer yet', async () => {
    const dir = tempDir('unembedded');
    write(
      dir,
      'epics/dunning.md',
      '# Dunning\n\n## Collection schedule\n\nA declined charge is retried on days 1, 3 and 7.\n',
    );
    write(dir, 'epics/deploy.md', '# Deploys\n\n## Canary\n\nEvery release goes to a canary first.\n');
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    const engine = new Engine({
      folders: [{ name: 'ws', absPath: dir }],
      embeddings: { provider: 'openai', baseUrl, model: 'never', timeoutMs: 50_000 },
    });
    const wordsOnly = new Engine({ folders: [{ name: 'ws', absPath: dir }], embeddings: { provider: 'off' } });
    try {
      await engine.waitForIndex();
      await wordsOnly.waitForIndex();
      const answer = await askEngine(engine, 'when is a declined charge retried?');
      assert.equal(engine.status().meaning?.sectionsWithVectors, 0);
      assert.ok(heard >= 1, 'the background job did ask the endpoint');
      const expected = await askEngine(wordsOnly, 'when is a declined charge retried?');
      assert.deepEqual(
        answer.passages.map((p) => [p.title, p.score]),
        expected.passages.map((p) => [p.title, p.score]),
      );
      assert.equal(answer.passages[0].title, 'Dunning');
      assert.deepEqual(
        answer.passages[0].why.find((w) => w.signal === 'meaning'),
        {
          signal: 'meaning',
          weight: 0,
          raw: 0,
          contribution: 0,
          detail: 'no embedding for this passage yet: words count at full weight',
        },
      );
    } finally {
      engine.dispose();
      wordsOnly.dispose();
    }
  });
});
