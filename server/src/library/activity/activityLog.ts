/**
 * The local call log of the library tools (issue 5, "Diagnostics"): one JSON line per tool call
 * with the tool, its input, latency, the ids it returned and whether it was empty.
 *
 * Bounded and rotating: when `activity.jsonl` would grow past `maxFileBytes` it becomes
 * `activity.1.jsonl` (the older ones shift to `.2`, `.3`...) and files past `maxFiles` are deleted,
 * so the log never holds more than about `maxFileBytes * maxFiles` bytes. It lives in a directory
 * the host chooses (the CLI's cache directory), never inside a served workspace folder: indexing
 * must not read what tool calls write, and nothing we do may modify the workspace.
 *
 * Logging never fails a tool call: write errors go to `onError` and the call goes on.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

export const ACTIVITY_FILE = 'activity.jsonl';
/** Default size at which the current file rotates: 1 MiB. */
export const DEFAULT_MAX_FILE_BYTES = 1024 * 1024;
/** Default number of files kept, the current one included: 4 (so at most ~4 MiB). */
export const DEFAULT_MAX_FILES = 4;
/** Longest string kept from a tool's input, in characters. */
export const MAX_INPUT_CHARS = 1_000;

export interface ActivityEntry {
  /** ISO time the call ended. */
  at: string;
  tool: string;
  /** The connection the call came from (MCP session, `cli`). */
  session?: string;
  input: Record<string, unknown>;
  latencyMs: number;
  /** Full ids of what the call returned (sections for search and get_section, documents for get_toc). */
  resultIds: string[];
  empty: boolean;
  /** The message of a refused or failed call. */
  error?: string;
}

export interface ActivityLogOptions {
  maxFileBytes?: number;
  maxFiles?: number;
  /** Clock for `at` (tests). */
  clock?: () => Date;
  onError?: (error: Error) => void;
}

export class ActivityLog {
  readonly dir: string;
  private readonly maxFileBytes: number;
  private readonly maxFiles: number;
  private readonly clock: () => Date;
  private readonly onError: (error: Error) => void;

  constructor(dir: string, options: ActivityLogOptions = {}) {
    this.dir = path.resolve(dir);
    this.maxFileBytes = Math.max(256, options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES);
    this.maxFiles = Math.max(1, options.maxFiles ?? DEFAULT_MAX_FILES);
    this.clock = options.clock ?? (() => new Date());
    this.onError = options.onError ?? (() => undefined);
  }

  /**
   * A log in `dir`, refusing a directory inside any of `workspaceRoots` (absolute paths): the log
   * must never be written into the workspace it describes.
   */
  static outsideWorkspace(dir: string, workspaceRoots: readonly string[], options?: ActivityLogOptions): ActivityLog {
    const abs = path.resolve(dir);
    for (const root of workspaceRoots) {
      const rel = path.relative(path.resolve(root), abs);
      if (rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel))) {
        throw new Error(`ActivityLog: ${abs} is inside the workspace folder ${root}; choose a directory outside it`);
      }
    }
    return new ActivityLog(abs, options);
  }

  /** Appends one call. `at` defaults to the log's clock. Never throws. */
  append(entry: Omit<ActivityEntry, 'at'> & { at?: string }): void {
    try {
      const record: ActivityEntry = {
        ...entry,
        at: entry.at ?? this.clock().toISOString(),
        input: boundInput(entry.input),
      };
      const line = `${JSON.stringify(record)}\n`;
      fs.mkdirSync(this.dir, { recursive: true });
      const current = this.file(0);
      const size = fileSize(current);
      if (size > 0 && size + Buffer.byteLength(line) > this.maxFileBytes) this.rotate();
      fs.appendFileSync(current, line);
    } catch (error) {
      this.onError(error as Error);
    }
  }

  /** Every logged call still kept, oldest first. Lines that do not parse (a torn write) are skipped. */
  read(): ActivityEntry[] {
    const entries: ActivityEntry[] = [];
    for (let i = this.maxFiles - 1; i >= 0; i--) {
      let text: string;
      try {
        text = fs.readFileSync(this.file(i), 'utf8');
      } catch {
        continue;
      }
      for (const line of text.split('\n')) {
        if (line.trim() === '') continue;
        try {
          const value = JSON.parse(line) as ActivityEntry;
          if (typeof value.tool === 'string' && typeof value.latencyMs === 'number') entries.push(value);
        } catch {
          // a line cut short by a crash mid-write
        }
      }
    }
    return entries;
  }

  /** The files of the log that exist, newest first. */
  files(): string[] {
    const found: string[] = [];
    for (let i = 0; i < this.maxFiles; i++) if (fs.existsSync(this.file(i))) found.push(this.file(i));
    return found;
  }

  private file(index: number): string {
    return path.join(this.dir, index === 0 ? ACTIVITY_FILE : ACTIVITY_FILE.replace(/\.jsonl$/, `.${index}.jsonl`));
  }

  private rotate(): void {
    fs.rmSync(this.file(this.maxFiles - 1), { force: true });
    for (let i = this.maxFiles - 2; i >= 0; i--) {
      if (fs.existsSync(this.file(i))) fs.renameSync(this.file(i), this.file(i + 1));
    }
  }
}

function fileSize(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}

/** Long strings cut, so one huge plan cannot fill the log. */
function boundInput(input: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) {
    if (value === undefined) continue;
    out[key] =
      typeof value === 'string' && value.length > MAX_INPUT_CHARS ? `${value.slice(0, MAX_INPUT_CHARS)}…` : value;
  }
  return out;
}
