/**
 * The results view in the workbench: a webview (an iframe holding the page's own iframe) in an
 * editor tab. Reads what it renders (its text, its tables, code blocks and links), clicks its
 * links, and finds the buttons its title bar carries.
 */
import { until, UI_TIMEOUT_MS, type VsCodeSession } from './harness';
import type { Locator } from './playwright';

/** What the view in front renders. */
export interface RenderedView {
  /** The page's text as shown (innerText of its `main`). */
  text: string;
  headings: string[];
  /** Each table's rows, each row its cells' text. */
  tables: string[][][];
  /** The text of each code block (`pre`). */
  codeBlocks: string[];
  /** Inline code spans outside code blocks. */
  codeSpans: string[];
  /** Every link: its text and href. */
  links: { text: string; href: string }[];
  /** True when something is wider than the view (a line that does not wrap). */
  overflows: boolean;
}

/** The `main` element of the visible webview's page. */
export function viewMain(vs: VsCodeSession): Locator {
  return vs.page
    .frameLocator('iframe.webview.ready:visible')
    .first()
    .frameLocator('#active-frame')
    .locator('main')
    .first();
}

/** Waits for the visible results view to render a page whose text satisfies `accept`, and reads it. */
export async function readResultsView(
  vs: VsCodeSession,
  accept: (view: RenderedView) => boolean = (v) => v.text.trim().length > 0,
  timeoutMs = UI_TIMEOUT_MS,
): Promise<RenderedView> {
  const main = viewMain(vs);
  return until(
    'the results view to render',
    async () => {
      const [view] = await main.evaluateAll<RenderedView[]>(
        new Function(
          'mains',
          `return mains.map((m) => ({
            text: m.innerText,
            headings: [...m.querySelectorAll('h1, h2, h3')].map((h) => h.textContent.trim()),
            tables: [...m.querySelectorAll('table')].map((t) => [...t.rows].map((r) => [...r.cells].map((c) => c.textContent.trim()))),
            codeBlocks: [...m.querySelectorAll('pre')].map((p) => p.textContent),
            codeSpans: [...m.querySelectorAll(':not(pre) > code')].map((c) => c.textContent),
            links: [...m.querySelectorAll('a')].map((a) => ({ text: a.textContent.trim(), href: a.getAttribute('href') || '' })),
            overflows: m.ownerDocument.documentElement.scrollWidth > m.ownerDocument.documentElement.clientWidth + 1,
          }));`,
        ) as (mains: unknown[]) => RenderedView[],
      );
      return view && accept(view) ? view : undefined;
    },
    timeoutMs,
  );
}

/** Clicks the first link of the view whose text is `text`. */
export async function clickViewLink(vs: VsCodeSession, text: string): Promise<void> {
  await viewMain(vs).locator('a', { hasText: text }).first().click();
}

/**
 * The active editor group's title-bar button for `title` (a command with an icon in the
 * `editor/title` navigation group): its label and the codicon it shows, or undefined.
 */
export async function titleBarButton(
  vs: VsCodeSession,
  title: string,
): Promise<{ label: string; classes: string; locator: Locator } | undefined> {
  const button = vs.page
    .locator(`.editor-group-container.active .editor-actions a.action-label[aria-label*="${title}"]`)
    .first();
  if ((await button.count()) === 0) return undefined;
  return {
    label: (await button.getAttribute('aria-label')) ?? '',
    classes: (await button.getAttribute('class')) ?? '',
    locator: button,
  };
}

/** The value typed in the open quick input (an input box's prefilled text). */
export async function quickInputValue(vs: VsCodeSession): Promise<string> {
  const [value] = await vs.page
    .locator('.quick-input-widget input')
    .first()
    .evaluateAll<string[]>(new Function('inputs', 'return inputs.map((i) => i.value);') as (i: unknown[]) => string[]);
  return value ?? '';
}
