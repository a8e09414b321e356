/**
 * Work-done progress for index passes (LSP `window/workDoneProgress/create` + `$/progress`): the
 * editor shows "Workspace Context: Indexing fernhill", then "Checked 1200 of 23840 files" while a
 * pass runs and the counts when it ends; and, while sections are embedded in the background,
 * "Loading the embedding model", then "Embedded 40 of 350 sections, about 20 s left" under a
 * progress of its own.
 *
 * The channel is injected by main.ts; a client that did not announce `window.workDoneProgress`
 * gets none (and still gets the index status notifications).
 */
import type { WorkDoneProgressBegin, WorkDoneProgressEnd, WorkDoneProgressReport } from 'vscode-languageserver';
import { timeLeft } from '../../../../shared/timeLeft';
import type { IndexState, PassProgress, MeaningStatus } from '../../engine';

export interface ProgressChannel {
  /** Asks the client to create `token`; false when it refused or cannot show progress. */
  create(token: string): Promise<boolean>;
  send(token: string, value: WorkDoneProgressBegin | WorkDoneProgressReport | WorkDoneProgressEnd): void;
}

export interface ProgressHandle {
  report(message: string): void;
  end(message?: string): void;
}

const NONE: ProgressHandle = { report: () => undefined, end: () => undefined };

/** Title of every index progress. */
export const PROGRESS_TITLE = 'Workspace Context';

export class IndexProgress {
  private counter = 0;

  constructor(private readonly channel: ProgressChannel | undefined) {}

  /**
   * Begins a progress under a token that says what it counts: `workspace-context/index/N` for a
   * pass (files), `workspace-context/embedding/N` for the embedding job (sections), so the
   * client's status item never reads an embedding count as a pass's.
   */
  async begin(message: string, kind: 'index' | 'embedding' = 'index'): Promise<ProgressHandle> {
    if (!this.channel) return NONE;
    const token = `workspace-context/${kind}/${++this.counter}`;
    let created = false;
    try {
      created = await this.channel.create(token);
    } catch {
      created = false;
    }
    if (!created) return NONE;
    const channel = this.channel;
    channel.send(token, { kind: 'begin', title: PROGRESS_TITLE, message, cancellable: false });
    let ended = false;
    return {
      report: (text) => {
        if (!ended) channel.send(token, { kind: 'report', message: text });
      },
      end: (text) => {
        if (ended) return;
        ended = true;
        channel.send(token, text === undefined ? { kind: 'end' } : { kind: 'end', message: text });
      },
    };
  }
}

/** "97 files, 133 documents, 350 sections, 66 entities": what a finished pass holds. */
export function describeState(state: IndexState): string {
  const c = state.counts;
  return `${c.files} files, ${c.documents} documents, ${c.sections} sections, ${state.entities.length} entities`;
}

/** A full pass's progress in words; "n of N" is what the client's status item shows. */
export function describePassProgress(progress: PassProgress): string {
  switch (progress.step) {
    case 'walking':
      return 'Listing files';
    case 'reading':
      return `Checked ${progress.done} of ${progress.total} files`;
    case 'parsing':
      return `Parsing and indexing ${progress.files} files`;
  }
}

/**
 * The embedding job's progress: begins when the engine starts embedding sections, reports each
 * chunk, ends when every section has its vector (or embedding stopped, with the reason).
 */
export class EmbeddingProgress {
  private handle: Promise<ProgressHandle> | undefined;

  constructor(private readonly progress: IndexProgress) {}

  update(meaning: MeaningStatus | null): void {
    const embedding = meaning?.embedding;
    if (embedding) {
      this.handle ??= this.progress.begin(`Embedding ${embedding.total} sections (${meaning.model})`, 'embedding');
      const left =
        embedding.secondsLeft === null || embedding.done >= embedding.total
          ? ''
          : `, ${timeLeft(embedding.secondsLeft)}`;
      const text = embedding.loadingModel
        ? 'Loading the embedding model'
        : `Embedded ${embedding.done} of ${embedding.total} sections${left}`;
      void this.handle.then((handle) => handle.report(text));
    } else if (this.handle) {
      const handle = this.handle;
      this.handle = undefined;
      const text = meaning?.lastError
        ? `Embedding stopped: ${meaning.lastError}`
        : `${meaning?.sectionsWithVectors ?? 0} sections have vectors`;
      void handle.then((h) => h.end(text));
    }
  }
}
