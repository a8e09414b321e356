/**
 * Reading a configuration file without trusting its size: `.wsctx.yaml` lies in the workspace,
 * and a 300 MB file there must cost a refusal, not the memory to hold it.
 */
import * as fs from 'node:fs';

/** Largest configuration file read (bytes). Real ones are a few hundred bytes. */
export const MAX_CONFIG_FILE_BYTES = 256 * 1024;

/**
 * The file's text, reading at most {@link MAX_CONFIG_FILE_BYTES} + 1 bytes (the file may grow
 * between the size check and the read). Throws an Error whose message says why it was not read:
 * too large, or the system's reason.
 */
export function readConfigFileText(file: string, options: { followLinks?: boolean; maxBytes?: number } = {}): string {
  const maxBytes = options.maxBytes ?? MAX_CONFIG_FILE_BYTES;
  // O_NONBLOCK: a FIFO in the file's place must not hang the host (it is refused below);
  // O_NOFOLLOW (the workspace's file): a symbolic link swapped in after the caller's check is
  // not followed. The user's own file may be a link (dotfile managers make them).
  const flags = fs.constants.O_RDONLY | fs.constants.O_NONBLOCK | (options.followLinks ? 0 : fs.constants.O_NOFOLLOW);
  const fd = fs.openSync(file, flags);
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) throw new Error('not a regular file; it is not read');
    if (stat.size > maxBytes) throw new Error(tooLarge(stat.size.toLocaleString('en-US'), maxBytes));
    const buffer = Buffer.alloc(maxBytes + 1);
    let length = 0;
    while (length < buffer.length) {
      const read = fs.readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      length += read;
    }
    if (length > maxBytes) throw new Error(tooLarge(`more than ${maxBytes.toLocaleString('en-US')}`, maxBytes));
    return buffer.subarray(0, length).toString('utf8');
  } finally {
    fs.closeSync(fd);
  }
}

function tooLarge(size: string, maxBytes: number): string {
  return `the file holds ${size} bytes; a configuration file may hold at most ${maxBytes.toLocaleString('en-US')}, so it is not read`;
}
