/**
 * Meaning in the engine, with the real packaged model: vectors follow the index (cached on disk
 * by digest, never embedded twice, re-embedded only for changed sections), the question's
 * embedding joins the ranking at 0.40 with why[] showing both halves, and an OpenAI-compatible
 * endpoint served by a local HTTP server works the same way.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { Engine } from '../../../../server/src/engine/engine';
import { MEANING_CURVE } from '../../../../server/src/engine/ranking/contract';
import { LocalEmbedder } from '../../../../server/src/engine/embeddings/localEmbedder';
import type { ContextOutput } from '../../../../server/src/tools/workspaceContext';
import { askEngine } from './askEngine';
import { removeTempDirs, tempDir, write } from '../../../helpers/tempWorkspace';

const DOCS: Record<string, string> = {
  'epics/dunning.md':
    '# Dunning\n\n## Collection schedule\n\nA declined charge is attempted again on days 1, 3, 7 and 14; then the subscription is suspended.\n',
  'epics/tls.md':
    '# Certificates\n\n## Renewal\n\nCertificates are renewed by cert-manager thirty days before they expire.\n',
  'epics/deploy.md':
    '# Deploys\n\n## Canary\n\nEvery release goes to a canary first and is promoted after ten minutes.\n',
};

function workspace(): string {
  const dir = tempDir('meaning');
  for (const [p, text] of Object.entries(DOCS)) write(dir, p, text);
  return dir;
}

describe('meaning in the engine (local model)', function () {
  this.timeout(180_000);
  after(removeTempDirs);

  it('embeds every section once, reuses the on-disk cache across restarts, and re-embeds only what changed', async () => {
    const dir = workspace();
    const cache = tempDir('cache');
    const logs: string[] = [];
    const first = new Engine({
      folders: [{ name: 'ws', absPath: dir }],
      cacheDir: cache,
      embeddings: { provider: 'local' },
      log: (m) => logs.push(m),
    });
    await first.waitForIndex();
    await first.waitForMeaning();
    const status = first.status().meaning!;
    assert.equal(status.model, 'local:all-minilm-l6-v2+onnx-int8-g3@0.1.0');
    assert.match(status.runtime ?? '', /^onnxruntime-node 1\.30\.0, int8, /);
    // The assembled ONNX model is cached beside the vectors, keyed by the weights package version.
    // (The query and the bulk worker may both build it at first start; the later one's temporary file can still be there.)
    assert.deepEqual(
      fs.readdirSync(path.join(cache, 'models')).filter((f) => !f.endsWith('.tmp')),
      ['minilm-int8-0.1.0-g3.onnx'],
    );
    assert.equal(status.sectionsWithVectors, first.current()!.counts.sections);
    assert.equal(status.sectionsPending, 0);
    assert.equal(status.backend, 'hnsw');
    assert.equal(status.backendReason, 'the built-in HNSW graph over the int8 vector store');
    first.dispose();

    // A second engine on the same cache: every vector comes from disk, nothing is embedded.
    const second = new Engine({
      folders: [{ name: 'ws', absPath: dir }],
      cacheDir: cache,
      embeddings: { provider: 'local' },
    });
    const progress: number[] = [];
    second.onDidChangeMeaning(() => {
      const p = second.status().meaning?.embedding;
      if (p) progress.push(p.total);
    });
    await second.waitForIndex();
    await second.waitForMeaning();
    assert.deepEqual(progress, [], 'no embedding job ran');
    assert.equal(second.status().meaning!.sectionsWithVectors, second.current()!.counts.sections);

    // An edit re-embeds that file's changed sections only.
    fs.appendFileSync(path.join(dir, 'epics/tls.md'), '\n## Revocation\n\nA leaked key is revoked at once.\n');
    await second.update(['epics/tls.md']);
    await second.waitForMeaning();
    assert.ok(
      progress.length > 0 && progress.every((total) => total <= 2),
      `only the edited file's sections were embedded: ${progress.join(',')}`,
    );
    second.dispose();
  });

  it('finds a passage by meaning that shares no word with the question, with why[] showing both halves', async () => {
    const dir = workspace();
    const engine = new Engine({
      folders: [{ name: 'ws', absPath: dir }],
      cacheDir: tempDir('cache'),
      embeddings: { provider: 'local' },
    });
    await engine.waitForIndex();
    await engine.waitForMeaning();
    const words = new Engine({ folders: [{ name: 'ws', absPath: dir }] });
    await words.waitForIndex();
    try {
      const question = 'what happens when a card payment keeps failing?';
      assert.deepEqual(
        (await askEngine(words, question)).passages.map((p) => p.sourceRef.path),
        [],
        'words alone find nothing',
      );
      const out = await askEngine(engine, question);
      assert.equal(out.passages[0].sourceRef.path, 'epics/dunning.md');
      const [wordsTerm, meaningTerm] = out.passages[0].why;
      assert.equal(wordsTerm.signal, 'words');
      assert.equal(wordsTerm.weight, 0.6);
      assert.equal(wordsTerm.raw, 0);
      assert.equal(meaningTerm.signal, 'meaning');
      assert.equal(meaningTerm.weight, 0.4);
      assert.ok(meaningTerm.raw > 0);
      assert.match(meaningTerm.detail, /^cosine 0\.\d{3} \(0 at 0\.1, 1 at 0\.6 for this model; to the power 0\.75\)$/);
      // The meaning term is curved (contract 2026-12-01.4): the linear share to the power
      // MEANING_CURVE, above the linear share between the anchors.
      const cosine = Number(/^cosine (0\.\d{3})/.exec(meaningTerm.detail)![1]);
      const linear = Math.min(1, Math.max(0, (cosine - 0.1) / 0.5));
      assert.ok(linear > 0.05 && linear < 0.95, `a cosine between the anchors (${cosine})`);
      assert.ok(
        Math.abs(meaningTerm.raw - linear ** MEANING_CURVE) < 0.003,
        `raw ${meaningTerm.raw} is ${linear.toFixed(3)} ^ ${MEANING_CURVE}`,
      );
      assert.ok(meaningTerm.raw > linear + 0.005, `raw ${meaningTerm.raw} is above the linear ${linear.toFixed(3)}`);
      assert.equal(out.meaning?.sectionsWithoutVectors, 0);
    } finally {
      engine.dispose();
      words.dispose();
    }
  });

  it('ranks exactly as the words-only formula when embeddings are off', async () => {
    const dir = workspace();
    const off = new Engine({ folders: [{ name: 'ws', absPath: dir }], embeddings: { provider: 'off' } });
    await off.waitForIndex();
    const out = await askEngine(off, 'canary release promoted');
    assert.equal(out.meaning, null);
    for (const p of out.passages) {
      assert.equal(p.why[0].weight, 1);
      assert.equal(p.why[1].contribution, 0);
    }
    off.dispose();
  });

  it('uses an OpenAI-compatible endpoint (a local HTTP server answering with the local model) the same way', async () => {
    const model = new LocalEmbedder({ workers: 1 });
    const requests: { model: string; input: string[] }[] = [];
    const server: Server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', async () => {
        const payload = JSON.parse(body) as { model: string; input: string[] };
        requests.push(payload);
        const vectors = await model.embed(payload.input);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            object: 'list',
            data: vectors.map((v, index) => ({ object: 'embedding', index, embedding: [...v] })),
            model: payload.model,
          }),
        );
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as AddressInfo).port;
    const dir = workspace();
    const engine = new Engine({
      folders: [{ name: 'ws', absPath: dir }],
      cacheDir: tempDir('cache'),
      embeddings: {
        provider: 'openai',
        baseUrl: `http://127.0.0.1:${port}/v1`,
        model: 'fake-minilm',
        similarity: { unrelated: 0.1, related: 0.6 },
      },
    });
    try {
      await engine.waitForIndex();
      await engine.waitForMeaning();
      assert.equal(engine.status().meaning!.model, `openai:http://127.0.0.1:${port}/v1#fake-minilm`);
      assert.ok(requests.length >= 1 && requests.every((r) => r.model === 'fake-minilm'));
      const out = await askEngine(engine, 'what happens when a card payment keeps failing?');
      assert.equal(out.passages[0].sourceRef.path, 'epics/dunning.md');
      assert.ok(out.passages[0].why[1].raw > 0);
    } finally {
      engine.dispose();
      await model.dispose();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});

describe('meaning after a restart (saved vector index)', function () {
  this.timeout(180_000);
  after(removeTempDirs);

  it('loads the saved vector index with the snapshot and answers by meaning at once, embedding nothing', async () => {
    const dir = workspace();
    const cache = tempDir('cache');
    const first = new Engine({
      folders: [{ name: 'ws', absPath: dir }],
      cacheDir: cache,
      embeddings: { provider: 'local' },
    });
    await first.waitForIndex();
    await first.waitForMeaning();
    const question = 'what happens when a card payment keeps failing?';
    const before = await askEngine(first, question);
    assert.equal(await first.saveSnapshot(), true);
    first.dispose();
    const saved = fs.readdirSync(path.join(cache, 'vectors'));
    assert.ok(saved.some((f) => f.endsWith('.vectors.sections.json')));
    // The built-in graph's one file: the int8 vectors and the links.
    assert.ok(
      saved.some((f) => f.endsWith('.vectors')) && !saved.some((f) => f.endsWith('.vectors.int8')),
      saved.join(', '),
    );
    // The saved index holds the vectors themselves: with the vector cache moved away, the restart
    // still has every section's vector (the cache is read only for texts the index lacks).
    const cacheFile = fs.readdirSync(path.join(cache, 'vectors')).find((f) => /^vectors-.*\.bin$/.test(f))!;
    fs.renameSync(path.join(cache, 'vectors', cacheFile), path.join(cache, `${cacheFile}.moved`));

    const logs: string[] = [];
    const second = new Engine({
      folders: [{ name: 'ws', absPath: dir }],
      cacheDir: cache,
      embeddings: { provider: 'local' },
      log: (m) => logs.push(m),
    });
    const restored = new Promise<void>((resolve) => second.onDidChangeState(() => resolve()));
    assert.equal(second.stateForQuery(), undefined);
    await restored;
    assert.equal(second.status().fromSnapshot, true);
    assert.equal(second.status().meaning!.sectionsWithVectors, second.current()!.counts.sections);
    const out = await askEngine(second, question);
    assert.equal(out.passages[0].sourceRef.path, 'epics/dunning.md');
    assert.ok(out.passages[0].why[1].raw > 0);
    // The same answer as before the restart: the same passages, the same meaning figures.
    assert.deepEqual(
      out.passages.map((p) => [p.sourceRef.path, p.why[1].raw]),
      before.passages.map((p) => [p.sourceRef.path, p.why[1].raw]),
    );
    assert.ok(!logs.some((l) => l.includes('saved vector index not used')), logs.join('\n'));
    // Nothing read or recreated the moved vector cache.
    assert.ok(!fs.existsSync(path.join(cache, 'vectors', cacheFile)));
    second.dispose();
  });

  it('restores a snapshot whose vectors hnswlib-node saved: served on words at once, the built-in graph filled from the vector cache behind, with a log line and the same answer', async () => {
    const dir = workspace();
    const cache = tempDir('cache');
    const first = new Engine({
      folders: [{ name: 'ws', absPath: dir }],
      cacheDir: cache,
      embeddings: { provider: 'local' },
      vectorBackend: 'hnswlib',
    });
    await first.waitForIndex();
    await first.waitForMeaning();
    const status = first.status().meaning!;
    assert.deepEqual(
      [status.backend, status.backendReason],
      ['hnswlib', 'hnswlib-node loaded, as configured (a float32 copy of every vector besides the int8 store)'],
    );
    const question = 'what happens when a card payment keeps failing?';
    const before = await askEngine(first, question);
    assert.equal(await first.saveSnapshot(), true);
    first.dispose();
    const saved = fs.readdirSync(path.join(cache, 'vectors'));
    assert.ok(
      saved.some((f) => f.endsWith('.vectors.int8')),
      `hnswlib's pair: ${saved.join(', ')}`,
    );

    const logs: string[] = [];
    const second = new Engine({
      folders: [{ name: 'ws', absPath: dir }],
      cacheDir: cache,
      embeddings: { provider: 'local' },
      log: (m) => logs.push(m),
    });
    const restored = new Promise<void>((resolve) => second.onDidChangeState(() => resolve()));
    assert.equal(second.stateForQuery(), undefined); // starts the engine: the restore runs
    await restored;
    assert.equal(second.status().fromSnapshot, true);
    // The restore did not build a graph from hnswlib's file: it refused the file and went on.
    assert.ok(
      logs.some((l) =>
        /^\[meaning\] saved vector index not used \(vector index: .*\.vectors was saved by the hnswlib-node index, the built-in HNSW graph is chosen\); rebuilding it from the vector cache$/.test(
          l,
        ),
      ),
      logs.join('\n'),
    );
    assert.ok(!logs.some((l) => l.includes('building the built-in HNSW graph from its int8 vectors')), logs.join('\n'));
    await second.waitForMeaning();
    const meaning = second.status().meaning!;
    assert.equal(meaning.backend, 'hnsw');
    assert.equal(meaning.sectionsWithVectors, second.current()!.counts.sections);
    const out = await askEngine(second, question);
    // Cosines come from the same int8 codes whichever graph finds the candidates.
    assert.deepEqual(
      out.passages.map((p) => [p.id, p.score, p.why]),
      before.passages.map((p) => [p.id, p.score, p.why]),
    );
    // The next save writes the built-in graph's one file in place of hnswlib's pair.
    assert.equal(await second.saveSnapshot(), true);
    second.dispose();
    const after = fs.readdirSync(path.join(cache, 'vectors'));
    assert.ok(!after.some((f) => f.endsWith('.vectors.int8')), after.join(', '));
  });

  it('binds the saved section map to its snapshot: one saved with an older snapshot is checked section by section, and a section changed since gets its new vector', async () => {
    const dir = workspace();
    const cache = tempDir('cache');
    const folders = [{ name: 'ws', absPath: dir }];
    const question = 'what happens when a card payment keeps failing?';
    const dunningMeaning = (out: ContextOutput) =>
      out.passages.find((p) => p.sourceRef.path === 'epics/dunning.md')?.why[1].raw;
    const savedFiles = () =>
      fs.readdirSync(path.join(cache, 'vectors')).filter((f) => /\.vectors(\.int8|\.sections\.json)?$/.test(f));
    const boundTo = () =>
      JSON.parse(
        fs.readFileSync(path.join(cache, 'vectors', savedFiles().find((f) => f.endsWith('.sections.json'))!), 'utf8'),
      ).snapshot as unknown;

    const first = new Engine({ folders, cacheDir: cache, embeddings: { provider: 'local' } });
    await first.waitForIndex();
    await first.waitForMeaning();
    const oldMeaning = dunningMeaning(await askEngine(first, question));
    assert.equal(await first.saveSnapshot(), true);
    first.dispose();
    const oldBinding = boundTo();
    assert.equal(typeof oldBinding, 'string');
    const older = tempDir('older-vectors');
    for (const f of savedFiles()) fs.copyFileSync(path.join(cache, 'vectors', f), path.join(older, f));

    // The dunning page now says something else: the next engine restores, re-reads it, embeds it.
    write(
      dir,
      'epics/dunning.md',
      '# Dunning\n\n## Collection schedule\n\nOnce a card payment has failed four times the account is handed to the collections agency.\n',
    );
    const second = new Engine({ folders, cacheDir: cache, embeddings: { provider: 'local' } });
    await second.waitForIndex();
    await second.waitForMeaning();
    const newMeaning = dunningMeaning(await askEngine(second, question));
    assert.equal(await second.saveSnapshot(), true);
    second.dispose();
    assert.notEqual(boundTo(), oldBinding);
    assert.ok(
      oldMeaning !== undefined && newMeaning !== undefined && Math.abs(oldMeaning - newMeaning) > 1e-3,
      `${oldMeaning} vs ${newMeaning}`,
    );

    // The older section map (and its index) beside the newer snapshot, as a save skipped while
    // embedding ran would leave them: its digests are not taken on trust, so the changed page's
    // old vector is dropped and its current one used.
    for (const f of fs.readdirSync(older)) fs.copyFileSync(path.join(older, f), path.join(cache, 'vectors', f));
    const logs: string[] = [];
    const third = new Engine({ folders, cacheDir: cache, embeddings: { provider: 'local' }, log: (m) => logs.push(m) });
    await third.waitForIndex();
    await third.waitForMeaning();
    // The older map was loaded (not refused as damaged): the check section by section did the rest.
    assert.ok(
      logs.some((l) => l.startsWith('[snapshot] restored')) &&
        !logs.some((l) => l.includes('saved vector index not used')),
      logs.join('\n'),
    );
    assert.equal(third.status().meaning!.sectionsWithVectors, third.current()!.counts.sections);
    assert.equal(dunningMeaning(await askEngine(third, question)), newMeaning);
    third.dispose();
  });
});
