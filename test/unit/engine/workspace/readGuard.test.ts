import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  decodeText,
  firstInvalidUtf8,
  readGuardedBytes,
  readGuardedBytesSync,
  WorkspaceReader,
} from '../../../../server/src/engine/workspace/readGuard';
import { removeTempDirs, tempDir, write } from '../../../helpers/tempWorkspace';

describe('engine/workspace/readGuard', () => {
  after(removeTempDirs);

  it('reads a regular file inside the roots, through an inside link too', async () => {
    const root = tempDir('guard');
    write(root, 'a.md', 'alpha');
    fs.symlinkSync(path.join(root, 'a.md'), path.join(root, 'link.md'));
    const reader = new WorkspaceReader([{ absPath: root }], 1024);
    assert.deepEqual(await reader.readText(path.join(root, 'link.md')), { ok: true, text: 'alpha' });
  });

  it('refuses links out, /proc files that report size 0, FIFOs and devices, each with its reason', async () => {
    const root = tempDir('guard-out');
    fs.symlinkSync('/proc/self/environ', path.join(root, 'environ.md'));
    fs.symlinkSync('/proc/self/pagemap', path.join(root, 'pagemap.md'));
    fs.symlinkSync('/dev/zero', path.join(root, 'zero.md'));
    execFileSync('mkfifo', [path.join(root, 'pipe.md')]);
    const reader = new WorkspaceReader([{ absPath: root }], 1024);
    const refusal = async (name: string) => {
      const read = await reader.readBytes(path.join(root, name));
      return read.ok ? 'read' : read.refusal;
    };
    assert.deepEqual(
      [
        await refusal('environ.md'),
        await refusal('pagemap.md'),
        await refusal('zero.md'),
        await refusal('pipe.md'),
        await refusal('missing.md'),
      ],
      ['outside', 'outside', 'not-regular', 'not-regular', 'unreadable'],
    );
    const sync = readGuardedBytesSync(path.join(root, 'pipe.md'), [root], 1024);
    assert.deepEqual(sync.ok ? 'read' : sync.message, 'a FIFO (named pipe), not a regular file');
  });

  it('reads a large file whole in a buffer of its size, and refuses one over the cap', async () => {
    const root = tempDir('guard-large');
    // 5 MiB and an odd byte of varied content: read in one buffer sized from fstat, not 64 KiB chunks.
    const content = Buffer.alloc(5 * 1024 * 1024 + 1);
    for (let i = 0; i < content.length; i++) content[i] = (i * 7919) % 251;
    const file = write(root, 'big.bin', content);
    const read = await readGuardedBytes(file, [root], 10 * 1024 * 1024);
    assert.ok(read.ok);
    assert.equal(read.bytes.length, content.length);
    assert.ok(read.bytes.equals(content));
    const capped = await readGuardedBytes(file, [root], content.length - 1);
    assert.deepEqual(capped.ok ? 'read' : [capped.refusal, capped.message], [
      'too-large',
      `more than ${content.length - 1} bytes (the size cap); not read`,
    ]);
    const exact = await readGuardedBytes(file, [root], content.length);
    assert.ok(exact.ok && exact.bytes.equals(content));
  });

  it('reads through a reused scratch buffer the bytes it reads without one, growing it, and caps them alike', () => {
    const root = tempDir('guard-scratch');
    const varied = (length: number, seed: number) => {
      const bytes = Buffer.alloc(length);
      for (let i = 0; i < length; i++) bytes[i] = (i * seed) % 251;
      return bytes;
    };
    // Empty, small, past one 64 KiB read, small again after a large one, exactly at the cap, past it.
    const files = [0, 5, 200_000, 17, 300_000, 300_001].map((length, i) =>
      write(root, `f${i}.bin`, varied(length, 7919 + i)),
    );
    const scratch = { buffer: Buffer.allocUnsafe(0) };
    const outcome = (read: ReturnType<typeof readGuardedBytesSync>) =>
      read.ok ? Buffer.from(read.bytes).toString('base64') : read.message;
    const through = files.map((file) => outcome(readGuardedBytesSync(file, [root], 300_000, scratch)));
    const plain = files.map((file) => outcome(readGuardedBytesSync(file, [root], 300_000)));
    assert.deepEqual(through, plain);
    assert.equal(plain[5], 'more than 300000 bytes (the size cap); not read');
    assert.equal(Buffer.from(plain[2], 'base64').length, 200_000);
    assert.ok(scratch.buffer.length >= 300_000 && scratch.buffer.length <= 300_001);
    const pipe = path.join(root, 'pipe.bin');
    execFileSync('mkfifo', [pipe]);
    assert.equal(
      outcome(readGuardedBytesSync(pipe, [root], 300_000, scratch)),
      'a FIFO (named pipe), not a regular file',
    );
  });

  it('caps the bytes actually read, whatever stat says: /proc/self/status reports size 0', async () => {
    const status = fs.statSync('/proc/self/status');
    assert.equal(status.size, 0);
    const small = await readGuardedBytes('/proc/self/status', ['/proc'], 16);
    assert.deepEqual(small.ok ? 'read' : [small.refusal, small.message], [
      'too-large',
      'more than 16 bytes (the size cap); not read',
    ]);
    const whole = await readGuardedBytes('/proc/self/status', ['/proc'], 1 << 20);
    assert.ok(whole.ok && whole.bytes.length > 16 && /^Name:/.test(whole.bytes.toString('utf8')));
  });

  it('finds the first invalid UTF-8 byte and its line', () => {
    assert.equal(firstInvalidUtf8(Buffer.from('plain ascii, é and 😀')), Buffer.byteLength('plain ascii, é and 😀'));
    assert.equal(firstInvalidUtf8(Buffer.from([0x61, 0xc0, 0x80])), 1); // overlong
    assert.equal(firstInvalidUtf8(Buffer.from([0x61, 0xed, 0xa0, 0x80])), 1); // surrogate
    assert.equal(firstInvalidUtf8(Buffer.from([0x61, 0x62, 0xe2, 0x82])), 2); // truncated
    assert.deepEqual(decodeText(Buffer.concat([Buffer.from('one\ntwo\nthr'), Buffer.from([0xe9, 0x65])])), {
      text: 'one\ntwo\nthr\ufffde',
      invalidUtf8: { offset: 11, line: 3 },
    });
    assert.deepEqual(decodeText(Buffer.from('\ufeffbom')), { text: 'bom' });
  });
});
