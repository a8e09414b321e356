/**
 * The results view's page: the rendered Markdown (VS Code's own Markdown engine renders it,
 * resultsView.ts) inside a document that follows the editor's theme (its CSS variables), wraps long
 * lines and wide tables, and runs under a strict Content Security Policy: no network, no remote
 * images, no script but this page's own, which turns a click on one of the view's links into a
 * message to the extension (and every other link into nothing).
 *
 * Imports no `vscode`.
 */
import { LINK_SCHEME } from './resultsMarkdown';

/** `text` as HTML text: the five characters that could start markup or end an attribute, escaped. */
export function htmlText(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** The Content-Security-Policy of the page: only its own style and script, by nonce; images only inline. */
export function contentSecurityPolicy(nonce: string): string {
  return [
    "default-src 'none'",
    `style-src 'nonce-${nonce}'`,
    `script-src 'nonce-${nonce}'`,
    'img-src data:',
    "font-src 'none'",
    "connect-src 'none'",
    "frame-src 'none'",
    "form-action 'none'",
    "base-uri 'none'",
  ].join('; ');
}

const STYLE = `
  body { font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); color: var(--vscode-editor-foreground); background: var(--vscode-editor-background); line-height: 1.5; padding: 0 24px 32px; max-width: 1100px; }
  main { overflow-wrap: anywhere; }
  h1 { font-size: 1.5em; border-bottom: 1px solid var(--vscode-panel-border); padding-bottom: 4px; }
  h2 { font-size: 1.2em; margin-top: 1.8em; }
  a { color: var(--vscode-textLink-foreground); text-decoration: none; cursor: pointer; }
  a:hover { color: var(--vscode-textLink-activeForeground); text-decoration: underline; }
  code { font-family: var(--vscode-editor-font-family); font-size: 0.95em; background: var(--vscode-textCodeBlock-background); padding: 1px 4px; border-radius: 3px; }
  pre { background: var(--vscode-textCodeBlock-background); padding: 8px 12px; border-radius: 4px; white-space: pre-wrap; overflow-wrap: anywhere; }
  pre code { background: none; padding: 0; }
  blockquote { margin: 0 0 1em; padding: 4px 12px; border-left: 3px solid var(--vscode-textBlockQuote-border); background: var(--vscode-textBlockQuote-background); }
  table { border-collapse: collapse; width: 100%; table-layout: auto; margin: 0.5em 0 1em; }
  th, td { border: 1px solid var(--vscode-panel-border); padding: 3px 8px; vertical-align: top; text-align: left; }
  th { white-space: nowrap; background: var(--vscode-keybindingTable-headerBackground, transparent); }
  td { overflow-wrap: break-word; }
`;

/** The click handler, as page source: the view's own links go to the extension, the rest nowhere. */
const SCRIPT = `
  const vscode = acquireVsCodeApi();
  document.addEventListener('click', (event) => {
    const link = event.target instanceof Element ? event.target.closest('a') : null;
    if (!link) return;
    event.preventDefault();
    const href = link.getAttribute('href') || '';
    if (href.startsWith(${JSON.stringify(`${LINK_SCHEME}:`)})) vscode.postMessage({ type: 'open', link: href });
  });
`;

/** The whole page around `bodyHtml` (HTML VS Code's Markdown engine made from the view's own Markdown). */
export function viewPage(title: string, bodyHtml: string, nonce: string): string {
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="UTF-8">',
    `<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy(nonce)}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1.0">',
    `<title>${htmlText(title)}</title>`,
    `<style nonce="${nonce}">${STYLE}</style>`,
    '</head>',
    '<body>',
    `<main>${bodyHtml}</main>`,
    `<script nonce="${nonce}">${SCRIPT}</script>`,
    '</body>',
    '</html>',
  ].join('\n');
}

/** When VS Code's Markdown engine is not there to render: the Markdown itself, as preformatted text. */
export function markdownSourceHtml(markdown: string): string {
  return `<pre>${htmlText(markdown)}</pre>`;
}
