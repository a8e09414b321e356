/**
 * Remembered judge verdicts (docs/ARCHITECTURE.md, get_context's contract, "The judge"): once the judge has given the same answer to
 * the same question about the very same task twice, that answer stands in for the judge the next
 * time the task comes in, until a page involved changes (its content digest differs) or
 * {@link VERDICT_TTL_MS} pass without the judge confirming it again.
 *
 * "The very same task" is the task's text with case and runs of whitespace ignored. Confirming
 * means the judge was asked again (a remembered verdict that lapsed) and gave the same answer.
 * A different answer starts the count again.
 *
 * Kept in memory and, when a file is given, in one JSON file written atomically beside the
 * request log; at most {@link MAX_VERDICTS} entries, the least recently confirmed dropped first.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Two weeks. */
export const VERDICT_TTL_MS = 14 * 24 * 60 * 60 * 1000;
/** Same answers needed before a verdict is remembered. Default 2. */
export const VERDICT_APPROVALS = 2;
/** Entries kept. Default 10,000. */
export const MAX_VERDICTS = 10_000;

export interface VerdictKey {
  task: string;
  /** The question's kind: `pack`, `use`, `different`, `row`, `link`. */
  question: string;
  /** What it is asked about: a section id, a pack name, a row key. */
  subject: string;
}

/** Page id -> content digest of every page the question involves. */
export type PageDigests = Readonly<Record<string, string>>;

export interface StoredVerdict {
  yes: boolean;
  probability: number;
  approvals: number;
  /** ISO time the judge last gave this answer. */
  confirmedAt: string;
  pages: PageDigests;
}

export interface VerdictCacheOptions {
  /** JSON file to keep the verdicts in; none: memory only. */
  file?: string;
  clock?: () => Date;
  onError?: (error: Error) => void;
}

export class VerdictCache {
  private readonly entries = new Map<string, StoredVerdict>();
  private readonly file?: string;
  private readonly clock: () => Date;
  private readonly onError: (error: Error) => void;
  private dirty = false;

  constructor(options: VerdictCacheOptions = {}) {
    this.file = options.file ? path.resolve(options.file) : undefined;
    this.clock = options.clock ?? (() => new Date());
    this.onError = options.onError ?? (() => undefined);
    this.load();
  }

  /** The remembered answer, or undefined when there is none, a page changed, or it lapsed. */
  lookup(key: VerdictKey, pages: PageDigests): { yes: boolean; probability: number } | undefined {
    const stored = this.entries.get(keyOf(key));
    if (!stored || stored.approvals < VERDICT_APPROVALS || !samePages(stored.pages, pages)) return undefined;
    if (this.clock().getTime() - Date.parse(stored.confirmedAt) > VERDICT_TTL_MS) return undefined;
    return { yes: stored.yes, probability: stored.probability };
  }

  /** Records the judge's answer: the same answer on the same pages counts one more approval. */
  record(key: VerdictKey, answer: { yes: boolean; probability: number }, pages: PageDigests): void {
    const k = keyOf(key);
    const stored = this.entries.get(k);
    const now = this.clock().toISOString();
    if (stored && stored.yes === answer.yes && samePages(stored.pages, pages)) {
      stored.approvals++;
      stored.confirmedAt = now;
      stored.probability = answer.probability;
      this.entries.delete(k); // re-insert: the map's order is least recently confirmed first
      this.entries.set(k, stored);
    } else {
      this.entries.delete(k);
      this.entries.set(k, {
        yes: answer.yes,
        probability: answer.probability,
        approvals: 1,
        confirmedAt: now,
        pages: { ...pages },
      });
    }
    while (this.entries.size > MAX_VERDICTS) this.entries.delete(this.entries.keys().next().value!);
    this.dirty = true;
  }

  /** The stored entry (tests, diagnostics). */
  get(key: VerdictKey): StoredVerdict | undefined {
    return this.entries.get(keyOf(key));
  }

  get size(): number {
    return this.entries.size;
  }

  /** Writes the file when something changed. Never throws. */
  flush(): void {
    if (!this.file || !this.dirty) return;
    try {
      fs.mkdirSync(path.dirname(this.file), { recursive: true });
      const temp = `${this.file}.${process.pid}.tmp`;
      fs.writeFileSync(temp, JSON.stringify({ version: 1, verdicts: Object.fromEntries(this.entries) }));
      fs.renameSync(temp, this.file);
      this.dirty = false;
    } catch (error) {
      this.onError(error as Error);
    }
  }

  private load(): void {
    if (!this.file) return;
    let text: string;
    try {
      text = fs.readFileSync(this.file, 'utf8');
    } catch {
      return; // none yet
    }
    try {
      const value = JSON.parse(text) as { version?: number; verdicts?: Record<string, StoredVerdict> };
      if (value.version !== 1 || typeof value.verdicts !== 'object' || value.verdicts === null) return;
      for (const [key, verdict] of Object.entries(value.verdicts)) {
        if (
          typeof verdict?.yes === 'boolean' &&
          typeof verdict.approvals === 'number' &&
          typeof verdict.confirmedAt === 'string'
        )
          this.entries.set(key, verdict);
      }
    } catch (error) {
      this.onError(new Error(`verdict cache ${this.file} is unreadable and was ignored: ${(error as Error).message}`));
    }
  }
}

/** The task as compared: case and runs of whitespace ignored. */
export function normalizeTask(task: string): string {
  return task.replace(/\s+/g, ' ').trim().toLowerCase();
}

function keyOf(key: VerdictKey): string {
  return `${normalizeTask(key.task)}\u0000${key.question}\u0000${key.subject}`;
}

function samePages(a: PageDigests, b: PageDigests): boolean {
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => a[k] === b[k]);
}
