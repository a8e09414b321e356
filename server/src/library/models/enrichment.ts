/**
 * What a model writes about the library in the background (docs/ARCHITECTURE.md, get_context's contract, steps 4-6): each page's
 * Good-for phrasings and whether it is read whole, each section's questions, and the phrasings of
 * folders and packs that declare none. Keyed by content digests, so an edited page is written
 * about again and an unchanged one never is; kept in memory and, when a file is given, in one
 * JSON file. Until a model has written something, derivedText.ts derives it.
 *
 * `enrich` is bounded (at most `maxCalls` model calls per run, pages first) and never throws: a
 * failed call leaves the derived text in place and is counted.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { sha256Hex, type Doc, type Section, type FolderDescription, type LibraryPack } from '../../engine';
import { documentSummary, sectionHeading } from '../view/summaries';
import type { LibraryView } from '../view/libraryView';
import type { ModelNotes } from './derivedText';
import type { ModelProvider } from './modelProvider';
import {
  cardPrompt,
  parseCard,
  parseQuestions,
  sectionQuestionsPrompt,
  type CardInput,
  type ModelCard,
} from './prompts';

/** Model calls one `enrich` run may make. Default 200. */
export const DEFAULT_ENRICH_CALLS = 200;
/** Time one enrichment call may take. Default 30,000 ms. */
export const ENRICH_TIMEOUT_MS = 30_000;

export interface EnrichReport {
  calls: number;
  failures: number;
  /** Pages, folders, packs and sections still without model text when the run stopped. */
  remaining: number;
  provider: string;
}

interface Stored {
  cards: Record<string, ModelCard>;
  questions: Record<string, string[]>;
}

export class ModelEnrichment implements ModelNotes {
  private readonly cards = new Map<string, ModelCard>();
  private readonly questions = new Map<string, string[]>();
  private readonly file?: string;

  constructor(options: { file?: string } = {}) {
    this.file = options.file ? path.resolve(options.file) : undefined;
    this.load();
  }

  pageCard(doc: Doc): ModelCard | undefined {
    return this.cards.get(`page:${doc.digest}`);
  }

  sectionQuestions(doc: Doc, section: Section): string[] | undefined {
    return this.questions.get(sectionKey(doc, section));
  }

  folderPhrasings(folder: FolderDescription): string[] | undefined {
    return this.cards.get(`folder:${folderKey(folder)}`)?.goodFor;
  }

  packPhrasings(pack: LibraryPack): string[] | undefined {
    return this.cards.get(`pack:${packKey(pack)}`)?.goodFor;
  }

  /** Asks `provider` for what is missing: pages' cards, folders' and packs' phrasings, then sections' questions. */
  async enrich(
    view: LibraryView,
    provider: ModelProvider,
    options: { maxCalls?: number; signal?: AbortSignal } = {},
  ): Promise<EnrichReport> {
    const jobs: { key: string; run: () => Promise<void> }[] = [];
    for (const doc of view.docs) {
      const key = `page:${doc.digest}`;
      if (doc.library!.goodFor.length > 0 && doc.library!.readWhole !== undefined) continue;
      if (this.cards.has(key)) continue;
      jobs.push({ key, run: () => this.card(provider, key, pageInput(doc), options.signal) });
    }
    for (const folder of view.state.libraryFolders) {
      const key = `folder:${folderKey(folder)}`;
      if (folder.goodFor.length > 0 || this.cards.has(key)) continue;
      const pages = view.docs.filter((d) => d.path.startsWith(`${folder.folder}/`));
      jobs.push({
        key,
        run: () =>
          this.card(
            provider,
            key,
            { what: 'folder', title: folder.folder, summary: folder.description, outline: pages.map((p) => p.title) },
            options.signal,
          ),
      });
    }
    for (const pack of view.state.packs) {
      const key = `pack:${packKey(pack)}`;
      if (pack.goodFor.length > 0 || this.cards.has(key)) continue;
      jobs.push({
        key,
        run: () =>
          this.card(
            provider,
            key,
            {
              what: 'pack',
              title: pack.name,
              summary: pack.description,
              outline: [...pack.always, ...pack.whenRelevant],
            },
            options.signal,
          ),
      });
    }
    for (const entry of view.sections) {
      const key = sectionKey(entry.doc, entry.section);
      if (this.questions.has(key)) continue;
      jobs.push({
        key,
        run: async () => {
          const prompt = sectionQuestionsPrompt(entry.doc.title, entry.section.headingPath, entry.section.text);
          const text = await provider.generate(
            { system: prompt[0].content, prompt: prompt[1].content, json: true, maxTokens: 200 },
            { timeoutMs: ENRICH_TIMEOUT_MS, signal: options.signal },
          );
          const questions = parseQuestions(text);
          if (!questions) throw new Error('unreadable answer');
          this.questions.set(key, questions);
        },
      });
    }
    const report: EnrichReport = { calls: 0, failures: 0, remaining: jobs.length, provider: provider.name };
    if (!provider.available()) return report;
    const maxCalls = options.maxCalls ?? DEFAULT_ENRICH_CALLS;
    for (const job of jobs) {
      if (report.calls >= maxCalls || options.signal?.aborted) break;
      report.calls++;
      try {
        await job.run();
        report.remaining--;
      } catch {
        report.failures++;
      }
    }
    this.save();
    return report;
  }

  private async card(provider: ModelProvider, key: string, input: CardInput, signal?: AbortSignal): Promise<void> {
    const prompt = cardPrompt(input);
    const text = await provider.generate(
      { system: prompt[0].content, prompt: prompt[1].content, json: true, maxTokens: 250 },
      { timeoutMs: ENRICH_TIMEOUT_MS, signal },
    );
    const card = parseCard(text);
    if (!card) throw new Error('unreadable answer');
    this.cards.set(key, card);
  }

  private load(): void {
    if (!this.file || !fs.existsSync(this.file)) return;
    try {
      const stored = JSON.parse(fs.readFileSync(this.file, 'utf8')) as Stored;
      for (const [k, v] of Object.entries(stored.cards ?? {})) this.cards.set(k, v);
      for (const [k, v] of Object.entries(stored.questions ?? {})) this.questions.set(k, v);
    } catch {
      // unreadable: start again; the file is rewritten on the next run
    }
  }

  private save(): void {
    if (!this.file) return;
    try {
      fs.mkdirSync(path.dirname(this.file), { recursive: true });
      const temp = `${this.file}.${process.pid}.tmp`;
      const stored: Stored = { cards: Object.fromEntries(this.cards), questions: Object.fromEntries(this.questions) };
      fs.writeFileSync(temp, JSON.stringify(stored));
      fs.renameSync(temp, this.file);
    } catch {
      // a missing cache only costs model calls next time
    }
  }
}

function pageInput(doc: Doc): CardInput {
  return {
    what: 'page',
    title: doc.title,
    type: doc.library?.type,
    summary: documentSummary(doc),
    outline: doc.sections.filter((s) => s.level > 1).map((s) => sectionHeading(s, doc)),
    text: doc.sections.map((s) => s.text).join('\n\n'),
  };
}

function sectionKey(doc: Doc, section: Section): string {
  return `section:${doc.digest}:${section.id}`;
}

function folderKey(folder: FolderDescription): string {
  return sha256Hex(JSON.stringify([folder.folder, folder.description ?? ''])).slice(0, 16);
}

function packKey(pack: LibraryPack): string {
  return sha256Hex(JSON.stringify([pack.name, pack.description ?? '', pack.always, pack.whenRelevant])).slice(0, 16);
}
