/**
 * Links the text does not have (docs/ARCHITECTURE.md, get_context's contract, step 6, "Links"): in the background, for each page and
 * its nearest neighbours, the judge is asked whether someone using the one would also need the
 * other (a template its tone page, a battlecard its pricing), which search alone cannot know.
 * Confident answers are followed by `get_context` like written `[[links]]`; the strongest are
 * offered to authors in diagnostics as links they might add.
 *
 * Answers are kept per pair of page digests, so an unchanged pair is never asked again; given a
 * file (the host's cache folder), they are kept there too, so the next process asks nothing
 * about unchanged pages. Without a model provider there are no inferred links.
 */
import { type Doc, termSet } from '../../engine';
import { documentSummary } from '../view/summaries';
import { runJudge, type JudgeQuestion } from '../models/judge';
import type { ModelProvider } from '../models/modelProvider';
import { contextIndex, type ContextIndex } from './contextIndex';
import { termCosine } from './phraseMatch';
import type { LibraryView } from '../view/libraryView';
import { readAnswerFile, writeAnswerFile } from '../models/answerFile';

/** Neighbours asked about per page. Default 3. */
export const LINK_NEIGHBOURS = 3;
/**
 * A neighbour must be more similar than this (card words, idf-weighted cosine) to be asked about.
 * Default 0: any shared word; the nearest {@link LINK_NEIGHBOURS} are taken.
 */
export const LINK_NEIGHBOUR_MIN = 0;
/** An inferred link is followed from this probability. Default 0.7. */
export const LINK_FOLLOW_MIN = 0.7;
/** And offered to authors from this one. Default 0.85. */
export const LINK_SUGGEST_MIN = 0.85;

export interface InferredLink {
  from: string;
  to: string;
  probability: number;
}

/** Bump when the stored answers change meaning. */
const LINKS_FILE_FORMAT = 1;

export class InferredLinks {
  /** `${fromDigest}>${toDigest}` -> probability. */
  private readonly answers: Map<string, number>;
  private readonly file?: string;

  /** `file`: where the answers are kept across processes (a JSON file outside the workspace); none: memory only. */
  constructor(options: { file?: string } = {}) {
    this.file = options.file;
    this.answers = readAnswerFile<number>(options.file, LINKS_FILE_FORMAT);
  }

  /** Pages someone using `doc` would also need, confident answers only, most confident first. */
  linksOf(view: LibraryView, doc: Doc): { doc: Doc; probability: number }[] {
    const out: { doc: Doc; probability: number }[] = [];
    for (const other of view.docs) {
      if (other.id === doc.id) continue;
      const p = this.answers.get(`${doc.digest}>${other.digest}`);
      if (p !== undefined && p >= LINK_FOLLOW_MIN) out.push({ doc: other, probability: p });
    }
    return out.sort((a, b) => b.probability - a.probability);
  }

  /** The strongest inferred links that are not written links yet: suggestions for authors. */
  suggestions(view: LibraryView): { from: Doc; to: Doc; probability: number }[] {
    const out: { from: Doc; to: Doc; probability: number }[] = [];
    for (const from of view.docs) {
      const written = new Set(from.library!.links.map((l) => l.trim().toLowerCase()));
      for (const { doc: to, probability } of this.linksOf(view, from)) {
        if (probability >= LINK_SUGGEST_MIN && !written.has(to.title.trim().toLowerCase()))
          out.push({ from, to, probability });
      }
    }
    return out;
  }

  /**
   * Asks the judge about each page's nearest neighbours it has not been asked about, one call per
   * page, at most `maxCalls` calls. Never throws; returns the number of calls made.
   */
  async infer(
    view: LibraryView,
    provider: ModelProvider,
    options: { maxCalls?: number; timeoutMs?: number } = {},
  ): Promise<number> {
    if (!provider.available()) return 0;
    const index = contextIndex(view);
    let calls = 0;
    for (const doc of view.docs) {
      if (calls >= (options.maxCalls ?? 100)) break;
      const asks = nearest(index, doc).filter((other) => !this.answers.has(`${doc.digest}>${other.digest}`));
      if (asks.length === 0) continue;
      const questions: JudgeQuestion[] = asks.map((other, i) => ({
        id: `q${i + 1}`,
        kind: 'link',
        subject: `${doc.id}>${other.id}`,
        material: `First page: ${doc.title} (${documentSummary(doc)})\nSecond page: ${other.title} (${documentSummary(other)})`,
        pages: { [doc.id]: doc.digest, [other.id]: other.digest },
        heuristic: { yes: false, probability: 0 },
      }));
      calls++;
      const run = await runJudge(questions, {
        task: `using the page "${doc.title}"`,
        mode: 'gate',
        provider,
        timeoutMs: options.timeoutMs ?? 30_000,
      });
      if (run.fallbackReason !== undefined) continue;
      for (const v of run.verdicts) {
        if (v.model) this.answers.set(`${doc.digest}>${asks[Number(v.id.slice(1)) - 1].digest}`, v.model.probability);
      }
      writeAnswerFile(this.file, LINKS_FILE_FORMAT, this.answers);
    }
    return calls;
  }
}

function nearest(index: ContextIndex, doc: Doc): Doc[] {
  const card = (d: Doc) => termSet([d.title, documentSummary(d), ...d.library!.goodFor, ...d.library!.tags].join('\n'));
  const mine = card(doc);
  return index.view.docs
    .filter((d) => d.id !== doc.id)
    .map((d) => ({ d, score: termCosine(index, mine, card(d), index.idf) }))
    .filter((x) => x.score > LINK_NEIGHBOUR_MIN)
    .sort((a, b) => b.score - a.score)
    .slice(0, LINK_NEIGHBOURS)
    .map((x) => x.d);
}
