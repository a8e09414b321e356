/**
 * The snapshot's format (5: section texts in a binary column): a restart answers exactly as the
 * engine that wrote it (every field of workspace_context: ids, order, scores, why[]), words only
 * and with the real local model's vectors; a snapshot of the previous format, a truncated one
 * and one whose text column is damaged are each discarded with a log line naming the file, and
 * the engine indexes from scratch and answers as before.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { crc32 } from 'node:zlib';
import { Engine, snapshotFileFor } from '../../../../server/src/engine/engine';
import { decodeSnapshot, encodeSnapshot } from '../../../../server/src/engine/persistence/snapshotFile';
import { SNAPSHOT_FORMAT } from '../../../../server/src/engine/persistence/indexSnapshot';
import { callTool } from '../../../../server/src/tools/callTool';
import { createServices } from '../../../../server/src/services/services';
import { findTool } from '../../../../server/src/tools/registry';
import type { ContextOutput } from '../../../../server/src/tools/workspaceContext';
import { copyExampleWorkspace, removeTempDirs, tempDir, write } from '../../../helpers/tempWorkspace';

const QUESTIONS = [
  'how is the dunning collection schedule set?',
  'who owns the billing worker?',
  'how do I roll back a deploy?',
  'certificate renewal',
  'what happens when invoice retries run out?',
];

/**
 * workspace_context's whole answer to each question at limits 3 and 10, but for `indexedAt`
 * (a rebuild has its own, and the restart's pass that follows the restore sets a new one).
 */
async function answers(
  engine: Engine,
  workspace: string,
  questions: readonly string[],
): Promise<Omit<ContextOutput, 'indexedAt'>[]> {
  const services = createServices({ engine });
  const out: Omit<ContextOutput, 'indexedAt'>[] = [];
  for (const question of questions) {
    for (const limit of [3, 10]) {
      const { indexedAt: _when, ...answer } = (await callTool(
        services,
        findTool('workspace_context')!,
        { workspace, question, limit },
        { sessionId: 't' },
      )) as ContextOutput;
      // Asked while the first pass after the restore may still run: those answers say so
      // (`index-stale`, tools/callTool.ts); what they hold is what is compared here.
      out.push({ ...answer, degraded: answer.degraded.filter((flag) => flag !== 'index-stale') });
    }
  }
  return out;
}

/** The engine's first state, restored or indexed, and the log lines so far. */
async function started(options: ConstructorParameters<typeof Engine>[0]): Promise<{ engine: Engine; logs: string[] }> {
  const logs: string[] = [];
  const engine = new Engine({ ...options, log: (m) => logs.push(m) });
  const first = new Promise<void>((resolve) => engine.onDidChangeState(() => resolve()));
  // The engine starts on its first question: restoring the snapshot, or a first pass without one.
  assert.equal(engine.stateForQuery(), undefined);
  await first;
  return { engine, logs };
}

/** The same JSON and binary parts laid out as format 4 wrote them: one binary part, no count. */
function asFormat4(bytes: Buffer): Buffer {
  const read = decodeSnapshot(SNAPSHOT_FORMAT, bytes);
  assert.ok(read.ok);
  const json = Buffer.from(JSON.stringify(read.parts.json), 'utf8');
  const head = Buffer.alloc(8);
  head.writeUInt32LE(4, 0);
  head.writeUInt32LE(json.length, 4);
  const binary = Buffer.from(read.parts.binaries[0]);
  const binaryLength = Buffer.alloc(4);
  binaryLength.writeUInt32LE(binary.length, 0);
  const body = Buffer.concat([Buffer.from('WSCTX-SNAPSHOT\n', 'utf8'), head, json, binaryLength, binary]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32LE(crc32(body) >>> 0, 0);
  return Buffer.concat([body, crc]);
}

describe('index snapshot format', function () {
  this.timeout(180_000);
  after(removeTempDirs);

  it('words only: a restart answers workspace_context exactly as the engine that wrote the snapshot', async () => {
    const dir = copyExampleWorkspace();
    const cache = tempDir('cache');
    const folders = [{ name: 'fernhill', absPath: dir }];
    const first = new Engine({ folders, cacheDir: cache });
    const saved = await first.waitForIndex();
    const expected = await answers(first, 'fernhill', QUESTIONS);
    assert.equal(await first.saveSnapshot(), true);
    first.dispose();
    assert.ok(
      expected.every((a) => a.passages.length > 0),
      'every question finds passages',
    );

    const { engine: second, logs } = await started({ folders, cacheDir: cache });
    assert.equal(second.status().fromSnapshot, true);
    assert.equal(second.current()!.indexedAt, saved.indexedAt);
    assert.match(logs.join('\n'), /\[snapshot\] restored \d+ sections/);
    assert.deepEqual(await answers(second, 'fernhill', QUESTIONS), expected);
    second.dispose();
  });

  it('with vectors: a restart answers exactly as before, the meaning half of why[] included, and every text (accents, CJK, emoji) reads back', async () => {
    const dir = tempDir('meaning');
    write(
      dir,
      'epics/dunning.md',
      '# Dunning\n\n## Collection schedule\n\nA declined charge is attempted again on days 1, 3, 7 and 14; then the subscription is suspended.\n',
    );
    write(
      dir,
      'epics/tls.md',
      '# Certificates\n\n## Renewal\n\nCertificates are renewed by cert-manager thirty days before they expire.\n',
    );
    write(
      dir,
      'epics/café.md',
      '# Café crème\n\n## Résumé\n\nLe façade naïve: 日本語のテキスト and a rocket 🚀 on the deploy board.\n\n## Canary\n\nEvery release goes to a canary first and is promoted after ten minutes.\n',
    );
    const cache = tempDir('cache');
    const folders = [{ name: 'ws', absPath: dir }];
    const questions = [
      'what happens when a card payment keeps failing?',
      'how are releases promoted?',
      'rocket deploy board',
    ];
    const first = new Engine({ folders, cacheDir: cache, embeddings: { provider: 'local' } });
    const saved = await first.waitForIndex();
    await first.waitForMeaning();
    const expected = await answers(first, 'ws', questions);
    assert.equal(await first.saveSnapshot(), true);
    first.dispose();
    assert.ok(
      expected[0].passages[0].why.some((w) => w.signal === 'meaning' && w.raw > 0),
      JSON.stringify(expected[0].passages[0].why),
    );

    const { engine: second, logs } = await started({ folders, cacheDir: cache, embeddings: { provider: 'local' } });
    assert.equal(second.status().fromSnapshot, true);
    assert.equal(second.status().meaning!.sectionsWithVectors, second.current()!.counts.sections);
    assert.ok(!logs.some((l) => l.includes('saved vector index not used')), logs.join('\n'));
    const texts = (state: typeof saved) =>
      [...state.docs.values()].flatMap((d) => d.sections.map((s) => [s.id, s.text]));
    assert.deepEqual(texts(second.current()!), texts(saved));
    assert.deepEqual(await answers(second, 'ws', questions), expected);
    // Answered from the restored documents: the pass after the restore read no file again.
    await second.waitForIndex();
    assert.equal(second.status().lastPass?.filesRead, 0);
    second.dispose();
  });

  it('discards a snapshot of the previous format (4) with a log line, indexes from scratch and answers as before', async () => {
    const dir = copyExampleWorkspace();
    const cache = tempDir('cache');
    const folders = [{ name: 'fernhill', absPath: dir }];
    const first = new Engine({ folders, cacheDir: cache });
    await first.waitForIndex();
    const expected = await answers(first, 'fernhill', QUESTIONS.slice(0, 2));
    await first.saveSnapshot();
    first.dispose();
    const file = snapshotFileFor(cache, folders);
    fs.writeFileSync(file, asFormat4(fs.readFileSync(file)));

    const { engine: second, logs } = await started({ folders, cacheDir: cache });
    assert.ok(
      logs.includes(
        `[snapshot] discarded ${file}: format 4, this version reads format ${SNAPSHOT_FORMAT}; indexing from scratch`,
      ),
      logs.join('\n'),
    );
    assert.equal(second.status().fromSnapshot, false);
    assert.ok(second.status().lastPass!.filesRead > 90, 'rebuilt by reading the files');
    assert.deepEqual(await answers(second, 'fernhill', QUESTIONS.slice(0, 2)), expected);
    // The next save writes the current format, which the next start restores.
    assert.equal(await second.saveSnapshot(), true);
    second.dispose();
    assert.equal(decodeSnapshot(SNAPSHOT_FORMAT, fs.readFileSync(file)).ok, true);
  });

  it('discards a truncated snapshot and one whose text column is damaged, naming the file and the reason', async () => {
    const dir = copyExampleWorkspace();
    const cache = tempDir('cache');
    const folders = [{ name: 'fernhill', absPath: dir }];
    const first = new Engine({ folders, cacheDir: cache });
    await first.waitForIndex();
    const expected = await answers(first, 'fernhill', QUESTIONS.slice(0, 1));
    await first.saveSnapshot();
    first.dispose();
    const file = snapshotFileFor(cache, folders);
    const good = fs.readFileSync(file);

    // Cut short, as a full disk would leave it: refused by its checksum.
    fs.writeFileSync(file, good.subarray(0, Math.floor(good.length * 0.6)));
    const truncated = await started({ folders, cacheDir: cache });
    assert.ok(
      truncated.logs.includes(
        `[snapshot] discarded ${file}: checksum mismatch (truncated or corrupt); indexing from scratch`,
      ),
      truncated.logs.join('\n'),
    );
    assert.equal(truncated.engine.status().fromSnapshot, false);
    assert.deepEqual(await answers(truncated.engine, 'fernhill', QUESTIONS.slice(0, 1)), expected);
    truncated.engine.dispose();

    // A checksum that holds over a text column missing its last bytes (a writer's bug, not the
    // disk's): refused when the column is read, never served with texts shifted.
    const read = decodeSnapshot(SNAPSHOT_FORMAT, good);
    assert.ok(read.ok);
    const [postings, texts, warmHead] = read.parts.binaries;
    fs.writeFileSync(
      file,
      encodeSnapshot(SNAPSHOT_FORMAT, {
        json: read.parts.json,
        binaries: [postings, texts.subarray(0, texts.length - 5), warmHead],
      }),
    );
    const damaged = await started({ folders, cacheDir: cache });
    const line = damaged.logs.find((l) => l.startsWith(`[snapshot] discarded ${file}: snapshot texts: `));
    assert.ok(line?.endsWith('; indexing from scratch'), damaged.logs.join('\n'));
    assert.equal(damaged.engine.status().fromSnapshot, false);
    assert.deepEqual(await answers(damaged.engine, 'fernhill', QUESTIONS.slice(0, 1)), expected);
    damaged.engine.dispose();
  });
});
