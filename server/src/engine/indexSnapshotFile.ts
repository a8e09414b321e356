/**
 * The index snapshot on disk, as the engine keeps it: which file holds a set of folders' index,
 * writing it, and reading it back with git asked about its repositories while the JSON decodes.
 * The format itself is persistence/ (indexSnapshot.ts the parts, snapshotFile.ts the file).
 */
import { randomUUID } from 'node:crypto';
import * as path from 'node:path';
import { sha256Hex } from './chunking/ids';
import { startEarlyStatuses, type EarlyStatuses } from './indexing/gitChanges';
import type { IndexerMemory } from './indexing/indexerMemory';
import type { WorkspaceFolder } from './indexState';
import {
  decodeIndexerMemory,
  encodeIndexerMemory,
  SNAPSHOT_FORMAT,
  snapshotStatusTops,
} from './persistence/indexSnapshot';
import { encodeSnapshot, readSnapshotFile, removeOrphanTemps, writeFileAtomic } from './persistence/snapshotFile';
import type { WorkspaceReader } from './workspace/readGuard';

/** The snapshot file of a set of folders inside `cacheDir`: one per distinct set of folders. */
export function snapshotFileFor(cacheDir: string, folders: readonly WorkspaceFolder[]): string {
  const key = sha256Hex(folders.map((f) => `${f.name}\u0000${f.absPath}`).join('\n')).slice(0, 16);
  return path.join(cacheDir, `index-${key}.snapshot`);
}

/** The saved vector index beside a snapshot (same folder key), in the vectors folder. */
export function vectorIndexFileFor(snapshotPath: string): string {
  return path.join(
    path.dirname(snapshotPath),
    'vectors',
    path.basename(snapshotPath).replace(/\.snapshot$/, '.vectors'),
  );
}

/**
 * Writes `memory` to `snapshotPath` atomically under a fresh id, which the caller gives the
 * vector index it saves beside (a restart then trusts its digests; sectionVectors.ts
 * `bringInLine`). Throws on a write that fails.
 */
export async function writeIndexSnapshot(
  snapshotPath: string,
  memory: IndexerMemory,
): Promise<{ id: string; bytes: number }> {
  const id = randomUUID();
  const bytes = encodeSnapshot(SNAPSHOT_FORMAT, encodeIndexerMemory({ ...memory, snapshotId: id }));
  await writeFileAtomic(snapshotPath, bytes);
  return { id, bytes: bytes.length };
}

export interface SnapshotReadOptions {
  folders: readonly WorkspaceFolder[];
  reader: WorkspaceReader;
  /** Ask git about the snapshot's repositories while the JSON decodes (the engine's `useGit`). */
  useGit: boolean;
  log: (message: string) => void;
  /** Tests: runs once git answered and before the snapshot is decoded (engine.ts `restoreHooks`). */
  afterEarlyStatuses?: () => void | Promise<void>;
}

/** A snapshot read back, with git's early look at its repositories; null when there is none. */
export type SnapshotRead =
  | { ok: true; memory: IndexerMemory; early: EarlyStatuses | undefined }
  | { ok: false; reason: string }
  | null;

/**
 * Reads the snapshot at `snapshotPath`. Git is asked about the repositories it names before its
 * JSON is parsed: git runs in other processes (other cores) while this thread decodes. Sound
 * because the host hears of file changes from before git looks (docs/ARCHITECTURE.md, "Warm
 * start"): the engine checks those beside git's answer in its first pass.
 */
export async function readIndexSnapshot(snapshotPath: string, options: SnapshotReadOptions): Promise<SnapshotRead> {
  // Temporary files of a write that was killed midway are never read: removed.
  for (const orphan of await removeOrphanTemps(snapshotPath))
    options.log(`[snapshot] removed ${orphan}, left by an interrupted write`);
  let early: EarlyStatuses | undefined;
  const read = await readSnapshotFile(snapshotPath, SNAPSHOT_FORMAT, async (binaries) => {
    const tops = options.useGit ? snapshotStatusTops(binaries) : null;
    if (tops) early = await startEarlyStatuses(tops, options.folders);
    if (options.afterEarlyStatuses) {
      await early?.started.statuses.catch(() => undefined);
      await options.afterEarlyStatuses();
    }
  });
  if (read === null) return null;
  if (!read.ok) return { ok: false, reason: read.reason };
  try {
    return { ok: true, memory: decodeIndexerMemory(read.parts, options.folders, options.reader), early };
  } catch (error) {
    return { ok: false, reason: (error as Error).message };
  }
}
