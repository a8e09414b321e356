/**
 * Work-done progress for index passes (LSP `window/workDoneProgress/create` + `$/progress`): the
 * editor shows "Workspace Context: Indexing fernhill" while a pass runs and the counts when it ends.
 *
 * The channel is injected by main.ts; a client that did not announce `window.workDoneProgress`
 * gets none (and still gets the index status notifications).
 */
import type { WorkDoneProgressBegin, WorkDoneProgressEnd, WorkDoneProgressReport } from 'vscode-languageserver';
import type { IndexState } from '../../engine/indexState';

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

  async begin(message: string): Promise<ProgressHandle> {
    if (!this.channel) return NONE;
    const token = `workspace-context/index/${++this.counter}`;
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
