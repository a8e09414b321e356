import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ACTIVITY_FILE, ActivityLog, MAX_INPUT_CHARS } from '../../../../server/src/library/activity/activityLog';
import { removeTempDirs, tempDir } from '../../../helpers/tempWorkspace';

const entry = (n: number) => ({
  tool: 'search_instructions',
  session: 's',
  input: { plan: `plan number ${String(n).padStart(3, '0')}` },
  latencyMs: n,
  resultIds: [`id${n}`],
  empty: false,
});

describe('ActivityLog: the bounded, rotating call log', () => {
  after(removeTempDirs);
  const clock = () => new Date('2026-06-01T10:00:00.000Z');

  it('writes one JSON line per call and reads them back oldest first', () => {
    const dir = path.join(tempDir('log'), 'nested', 'activity');
    const log = new ActivityLog(dir, { clock });
    log.append(entry(1));
    log.append({ ...entry(2), empty: true, resultIds: [] });
    const lines = fs.readFileSync(path.join(dir, ACTIVITY_FILE), 'utf8').split('\n');
    assert.equal(
      lines[0],
      '{"tool":"search_instructions","session":"s","input":{"plan":"plan number 001"},"latencyMs":1,"resultIds":["id1"],"empty":false,"at":"2026-06-01T10:00:00.000Z"}',
    );
    assert.equal(lines[2], '');
    assert.deepEqual(
      log.read().map((e) => [e.latencyMs, e.empty]),
      [
        [1, false],
        [2, true],
      ],
    );
  });

  it('rotates by size and keeps at most maxFiles files, dropping the oldest calls', () => {
    const dir = tempDir('log');
    const log = new ActivityLog(dir, { clock, maxFileBytes: 1_000, maxFiles: 3 });
    const lineBytes = Buffer.byteLength(`${JSON.stringify({ ...entry(100), at: clock().toISOString() })}\n`);
    assert.equal(lineBytes, 164);
    for (let n = 100; n < 150; n++) log.append(entry(n));
    // 6 lines fit in 1,000 bytes: of 50 calls, the current file holds the last 2 (50 = 8 x 6 + 2)
    // and the two rotated files 6 each, so the last 14 are kept.
    assert.deepEqual(fs.readdirSync(dir).sort(), ['activity.1.jsonl', 'activity.2.jsonl', 'activity.jsonl']);
    const kept = log.read().map((e) => e.latencyMs);
    assert.deepEqual(
      kept,
      Array.from({ length: 14 }, (_, i) => 136 + i),
    );
    for (const file of log.files()) assert.ok(fs.statSync(file).size <= 1_000);
  });

  it('cuts long inputs, skips torn lines, and never throws on a write failure', () => {
    const dir = tempDir('log');
    const errors: string[] = [];
    const log = new ActivityLog(dir, { clock, onError: (e) => errors.push(e.message) });
    log.append({ ...entry(1), input: { plan: 'x'.repeat(5_000), profile: undefined } });
    fs.appendFileSync(path.join(dir, ACTIVITY_FILE), '{"tool":"get_sec');
    const [read] = log.read();
    assert.equal((read.input.plan as string).length, MAX_INPUT_CHARS + 1);
    assert.ok(!('profile' in read.input));
    assert.equal(log.read().length, 1);
    const blocked = new ActivityLog(path.join(dir, ACTIVITY_FILE, 'sub'), { onError: (e) => errors.push(e.message) });
    blocked.append(entry(2));
    assert.equal(errors.length, 1);
  });

  it('refuses a directory inside a served workspace folder', () => {
    const workspace = tempDir('ws');
    assert.throws(
      () => ActivityLog.outsideWorkspace(path.join(workspace, '.cache'), [workspace]),
      /is inside the workspace folder/,
    );
    assert.throws(() => ActivityLog.outsideWorkspace(workspace, [workspace]), /is inside the workspace folder/);
    const outside = ActivityLog.outsideWorkspace(path.join(tempDir('cache'), 'activity'), [workspace]);
    assert.ok(!outside.dir.startsWith(workspace));
  });
});
