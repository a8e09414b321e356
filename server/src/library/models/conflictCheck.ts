/**
 * The model's half of keeping the library sound: when pages change, each changed page's sections
 * are read next to their nearest neighbours in other pages (by their words), and a model says
 * which facts, numbers, dates or rules they state differently, quoting both (prompts.ts
 * `conflictPrompt`). Quotes that are not really in the passages are dropped.
 *
 * Answers are kept per pair of section texts (digests), so an unchanged pair is never asked
 * again and an edited one is; given a file (the host's cache folder) they are kept there too, so
 * a later process asks nothing about unchanged pages. `watchLibrarySoundness` runs the check after every re-index, for
 * the pages whose content changed, one at a time in the background; without a model it does
 * nothing (the deterministic flags of conflicts.ts need none).
 */
import { sha256Hex, type WorkspaceIndex, termSet } from '../../engine';
import type { ModelProvider } from './modelProvider';
import { readAnswerFile, writeAnswerFile } from './answerFile';
import { conflictPrompt, parseConflicts, type ModelConflict } from './prompts';
import type { FlagSource, LibraryFlag } from '../view/conflicts';
import { libraryView, type LibrarySection, type LibraryView } from '../view/libraryView';
import { dayOf } from '../view/readiness';
import { sectionBody, sectionHeading } from '../view/summaries';

/** Neighbours each section is read next to. Default 2. */
export const CONFLICT_NEIGHBOURS = 2;
/** A neighbour must share at least this (idf-weighted cosine of words) to be read. Default 0.3. */
export const CONFLICT_NEIGHBOUR_MIN = 0.3;
/** Distinctive words per section (highest idf) that find its neighbour candidates. Default 12. */
const KEY_TERMS = 12;
/** Time one check may take. Default 30,000 ms. */
export const CONFLICT_TIMEOUT_MS = 30_000;

interface Stored {
  a: string;
  b: string;
  conflicts: ModelConflict[];
}

export interface CheckReport {
  calls: number;
  failures: number;
  provider: string;
}

/** Bump when the stored answers change meaning. */
const CONFLICTS_FILE_FORMAT = 1;

export class ModelConflictCheck implements FlagSource {
  /** `${digest(a)}|${digest(b)}` -> the model's answer. */
  private readonly answers: Map<string, Stored>;
  private readonly file?: string;

  /** `file`: where the answers are kept across processes (a JSON file outside the workspace); none: memory only. */
  constructor(options: { file?: string } = {}) {
    this.file = options.file;
    this.answers = readAnswerFile<Stored>(options.file, CONFLICTS_FILE_FORMAT);
  }

  /** Reads the sections of `docIds` (default: every page) next to their neighbours; at most `maxCalls` model calls. */
  async check(
    view: LibraryView,
    provider: ModelProvider,
    options: { docIds?: ReadonlySet<string>; maxCalls?: number; timeoutMs?: number; signal?: AbortSignal } = {},
  ): Promise<CheckReport> {
    const report: CheckReport = { calls: 0, failures: 0, provider: provider.name };
    if (!provider.available()) return report;
    const terms = new Map<LibrarySection, ReadonlySet<string>>();
    const termsOf = (s: LibrarySection) => {
      let t = terms.get(s);
      if (!t) terms.set(s, (t = termSet(sectionBody(s.section))));
      return t;
    };
    const idf = idfOf(view);
    // Candidates share one of each other's most distinctive words: no all-pairs scan on a large library.
    const keyTerms = (s: LibrarySection) =>
      [...termsOf(s)].sort((x, y) => idf(y) - idf(x) || (x < y ? -1 : 1)).slice(0, KEY_TERMS);
    const byTerm = new Map<string, LibrarySection[]>();
    for (const s of view.sections) {
      for (const t of keyTerms(s)) {
        let list = byTerm.get(t);
        if (!list) byTerm.set(t, (list = []));
        list.push(s);
      }
    }
    for (const entry of view.sections) {
      if (options.docIds && !options.docIds.has(entry.doc.id)) continue;
      if (sectionBody(entry.section).trim() === '') continue;
      const mine = termsOf(entry);
      const near = new Set<LibrarySection>();
      for (const t of keyTerms(entry)) for (const other of byTerm.get(t) ?? []) near.add(other);
      const neighbours = [...near]
        .filter((other) => other.doc.id !== entry.doc.id)
        .map((other) => ({ other, score: cosine(mine, termsOf(other), idf) }))
        .filter((n) => n.score >= CONFLICT_NEIGHBOUR_MIN)
        .sort((x, y) => y.score - x.score || x.other.order - y.other.order)
        .slice(0, CONFLICT_NEIGHBOURS);
      for (const { other } of neighbours) {
        const [a, b] = entry.doc.path <= other.doc.path ? [entry, other] : [other, entry];
        const key = pairKey(a, b);
        if (this.answers.has(key)) continue;
        if (report.calls >= (options.maxCalls ?? 50) || options.signal?.aborted) return report;
        report.calls++;
        const prompt = conflictPrompt(
          { page: a.doc.title, heading: sectionHeading(a.section, a.doc), text: sectionBody(a.section) },
          { page: b.doc.title, heading: sectionHeading(b.section, b.doc), text: sectionBody(b.section) },
        );
        try {
          const text = await provider.generate(
            { system: prompt[0].content, prompt: prompt[1].content, json: true, maxTokens: 400 },
            { timeoutMs: options.timeoutMs ?? CONFLICT_TIMEOUT_MS, signal: options.signal },
          );
          const conflicts = parseConflicts(text, sectionBody(a.section), sectionBody(b.section));
          if (conflicts === null) throw new Error('unreadable answer');
          this.answers.set(key, { a: a.section.id, b: b.section.id, conflicts });
          writeAnswerFile(this.file, CONFLICTS_FILE_FORMAT, this.answers);
        } catch {
          report.failures++;
        }
      }
    }
    return report;
  }

  flags(view: LibraryView): LibraryFlag[] {
    const out: LibraryFlag[] = [];
    for (const [key, stored] of this.answers) {
      const a = view.sectionById.get(stored.a);
      const b = view.sectionById.get(stored.b);
      if (!a || !b || pairKey(a, b) !== key) continue; // a section changed since: its answer is stale
      for (const c of stored.conflicts) {
        out.push({
          kind: 'conflict',
          by: 'model',
          what: c.what || `"${c.a}" vs "${c.b}"`,
          score: 1,
          places: [placeOf(a, c.a), placeOf(b, c.b)],
        });
      }
    }
    return out;
  }
}

/**
 * Runs the model's check after every re-index for the pages whose content changed since the last
 * check (all pages the first time a model is available), one run at a time. `provider` is read at each run, so a host can change it.
 * Returns the unsubscribe function.
 */
export function watchLibrarySoundness(
  engine: WorkspaceIndex,
  check: ModelConflictCheck,
  provider: () => ModelProvider,
  options: { now?: () => Date; log?: (message: string) => void; maxCalls?: number } = {},
): () => void {
  let digests = new Map<string, string>();
  let running = Promise.resolve();
  const unsubscribe = engine.onDidChangeState((state) => {
    const view = libraryView(state, dayOf(options.now?.() ?? new Date()));
    // Pages count as checked only once a model read them: a provider that appears later checks them all.
    if (!provider().available()) return;
    const changed = new Set(view.docs.filter((d) => digests.get(d.id) !== d.digest).map((d) => d.id));
    digests = new Map(view.docs.map((d) => [d.id, d.digest]));
    if (changed.size === 0) return;
    running = running.then(async () => {
      const report = await check.check(view, provider(), { docIds: changed, maxCalls: options.maxCalls });
      // A provider given up meanwhile (a one-shot answer is made) abandoned these calls: nothing failed.
      if (provider().available())
        options.log?.(
          `[library] conflict check of ${changed.size} changed page(s) with ${report.provider}: ${report.calls} call(s), ${report.failures} failed`,
        );
    });
  });
  return unsubscribe;
}

function pairKey(a: LibrarySection, b: LibrarySection): string {
  return `${sha256Hex(a.section.text).slice(0, 16)}|${sha256Hex(b.section.text).slice(0, 16)}`;
}

function placeOf(entry: LibrarySection, quote: string): LibraryFlag['places'][number] {
  const lines = entry.section.text.split('\n');
  const probe = quote.replace(/\s+/g, ' ').slice(0, 24).toLowerCase();
  const at = lines.findIndex((l) => l.replace(/[*_`]/g, '').toLowerCase().includes(probe.replace(/[*_`]/g, '')));
  return {
    docId: entry.doc.id,
    sectionId: entry.section.id,
    path: entry.doc.path,
    title: entry.doc.title,
    heading: sectionHeading(entry.section, entry.doc),
    line: entry.section.startLine + Math.max(0, at),
    wording: quote,
  };
}

function idfOf(view: LibraryView): (term: string) => number {
  const n = Math.max(1, view.state.lexical.sectionCount);
  return (term) => {
    const df = Math.min(view.state.lexical.df(term), n);
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  };
}

function cosine(a: ReadonlySet<string>, b: ReadonlySet<string>, idf: (t: string) => number): number {
  if (a.size === 0 || b.size === 0) return 0;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (const t of a) {
    const w = idf(t) ** 2;
    na += w;
    if (b.has(t)) dot += w;
  }
  for (const t of b) nb += idf(t) ** 2;
  return dot === 0 ? 0 : dot / Math.sqrt(na * nb);
}
