/**
 * What the extension's status bar item said from the workbench's first frame, and a picture of
 * each phase. The phases of a first open (starting, indexing, embedding, ready) can each last
 * under a second, shorter than polling the status bar and taking a screenshot, so both are
 * recorded as they happen:
 *
 * - a MutationObserver, installed before the workbench's own scripts, reports every change of
 *   the item's text and accessible label with the page's clock to Node (`exposeFunction`);
 * - Chrome's screencast (DevTools `Page.startScreencast`) streams the frames the page paints, and
 *   one every SAMPLE_MS is kept with its paint time, in the same clock.
 *
 * `framesIn(phase)` then picks the frames painted while the item showed that phase, so each
 * saved picture shows what the assertions read.
 */
import type { CDPSession } from './playwright';
import type { VsCodeSession } from './harness';
import { STATUS_ITEM_ID } from './statusChecks';

/** One change of the item: its text ("Context: indexing 12 of 98"), accessible label, and when (ms since the epoch). */
export interface StatusChange {
  at: number;
  text: string;
  label: string;
}

export interface Frame {
  /** When the frame was painted, ms since the epoch. */
  at: number;
  png: Buffer;
}

/** Keep one frame per this many ms: enough for phases under a second, little memory over a minute. */
const SAMPLE_MS = 200;

const REPORT = '__wsctxStatusChanged';

/** The observer, as page source (tsx may add helpers to transpiled functions that the page lacks). */
const OBSERVER = `(() => {
  if (window !== window.top) return;
  const id = ${JSON.stringify(STATUS_ITEM_ID)};
  let last = '';
  const read = () => {
    const item = document.getElementById(id);
    if (!item) return;
    const text = (item.textContent || '').replace(/\\s+/g, ' ').trim();
    const label = item.querySelector('a')?.getAttribute('aria-label') || '';
    const key = text + '\\n' + label;
    if (key === last) return;
    last = key;
    window[${JSON.stringify(REPORT)}](text, label, Date.now());
  };
  new MutationObserver(read).observe(document, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ['aria-label'] });
})();`;

export class StatusTimeline {
  readonly changes: StatusChange[] = [];
  private readonly frames: Frame[] = [];
  private cdp: CDPSession | undefined;
  private recording = true;
  private changesAtLastFrame = 0;

  /** Starts recording on a session that has not opened the workbench yet (StartOptions.beforeOpen). */
  async attach(vs: VsCodeSession): Promise<void> {
    await vs.page.exposeFunction(REPORT, (text: string, label: string, at: number) => {
      this.changes.push({ at, text, label });
    });
    await vs.page.addInitScript(OBSERVER);
    this.cdp = await vs.context.newCDPSession(vs.page);
    this.cdp.on(
      'Page.screencastFrame',
      (frame: { data: string; sessionId: number; metadata: { timestamp?: number } }) => {
        // Every frame must be acknowledged, or Chrome stops sending them.
        void this.cdp?.send('Page.screencastFrameAck', { sessionId: frame.sessionId }).catch(() => undefined);
        if (!this.recording) return;
        const at = frame.metadata.timestamp !== undefined ? frame.metadata.timestamp * 1000 : Date.now();
        // The first frame after each change is kept whatever the spacing: a phase can show for
        // less than SAMPLE_MS. The change reaches Node before the frame that paints it (both come
        // over the same DevTools connection, the binding call first).
        const previous = this.frames[this.frames.length - 1];
        const changedSince = this.changes.length > this.changesAtLastFrame;
        if (previous && at - previous.at < SAMPLE_MS && !changedSince) return;
        this.changesAtLastFrame = this.changes.length;
        this.frames.push({ at, png: Buffer.from(frame.data, 'base64') });
      },
    );
    await this.cdp.send('Page.startScreencast', { format: 'png', everyNthFrame: 1 });
  }

  /** Stops the screencast (the changes keep being recorded). */
  async stopFrames(): Promise<void> {
    this.recording = false;
    await this.cdp?.send('Page.stopScreencast').catch(() => undefined);
  }

  /** The changes whose text matches, in order. */
  matching(text: RegExp): StatusChange[] {
    return this.changes.filter((c) => text.test(c.text));
  }

  /**
   * The frames painted while the item's text matched `text` (from the first such change until
   * the next change that does not match), skipping `settleMs` after the change (a frame's time is
   * when it was painted, which follows the change that it paints).
   */
  framesIn(text: RegExp, settleMs = 0): Frame[] {
    const shown = this.spanOf(text);
    if (!shown) return [];
    const end = shown.end ?? Number.POSITIVE_INFINITY;
    return this.frames.filter((f) => f.at >= shown.start + settleMs && f.at < end);
  }

  /** How long, in ms, the item's text matched `text`, from its first such change until the next that does not match (still showing: until now). */
  durationOf(text: RegExp): number {
    const shown = this.spanOf(text);
    return shown ? Math.round((shown.end ?? Date.now()) - shown.start) : 0;
  }

  /** From the first change whose text matches until the next that does not (end undefined: still showing). */
  private spanOf(text: RegExp): { start: number; end: number | undefined } | undefined {
    const first = this.changes.findIndex((c) => text.test(c.text));
    if (first < 0) return undefined;
    const after = this.changes.slice(first + 1).find((c) => !text.test(c.text));
    return { start: this.changes[first].at, end: after?.at };
  }

  /** The item's text at time `at` (the last change before it). */
  textAt(at: number): string | undefined {
    let text: string | undefined;
    for (const c of this.changes) if (c.at <= at) text = c.text;
    return text;
  }

  /** The recorded texts, deduplicated in order, for error messages. */
  describe(): string {
    return this.changes.map((c) => `${new Date(c.at).toISOString().slice(11, 23)} ${c.text} | ${c.label}`).join('\n');
  }
}
