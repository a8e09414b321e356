/**
 * Workspace text inside Markdown, as text and nothing else.
 *
 * Hovers, results documents and chat answers are Markdown that VS Code renders with some
 * commands enabled (expand an entity, show its documents). A title, a heading, a `spec.lifecycle`
 * or a folder name comes from the workspace and may hold a backtick, `](command:...)` or
 * `<https://...>`: written into the Markdown as it is, it closes a code span or opens a link the
 * user can click. Every renderer (server/src/lsp/features/hover.ts and resultsDocument.ts,
 * client/src/chatText.ts) puts workspace text through these three, and only these:
 *
 * - {@link markdownText}: text, every character that Markdown could read as syntax escaped;
 * - {@link markdownCode}: a code span that the text cannot close, however many backticks it holds;
 * - {@link markdownLinkTarget}: a link destination of ours (a `file:` or `command:` URI) that
 *   the text around it cannot end early.
 *
 * Imports nothing: the client and the server both compile against this file.
 */

/**
 * What could make workspace text more than text, backslash-escaped (CommonMark escapes any ASCII
 * punctuation): `<` and `>` (autolinks and HTML), backticks (code spans) and the backslash
 * itself; `*`, `_` and `|` so emphasis and table cells show as written. Parentheses only matter
 * inside a link destination, which {@link markdownLinkTarget} guards.
 */
const SYNTAX = /[\\`*_<>|]/g;

/**
 * What turns an address in plain text into a link: marked's GFM autolinks (`https://`, `ftp://`,
 * `www.`, `name@host.tld`) and markdown-it's linkify (`scheme://`, `//host`, e-mail addresses,
 * as VS Code's preview runs it: fuzzy links off). An escape splits the text where it stands, so
 * neither finds one: the `:` and the first `/` of `://`, the `.` of `www.`, every `@`.
 */
const ADDRESS = /:(?=\/\/)|\/(?=\/)|(?<=\bwww)\.|@/gi;

/**
 * `[` and `]` (links, images and link reference definitions need them) are written as character
 * references, not backslash escapes: marked undoes `\[` and `\]` inside a link's label and reads
 * the label again, so an escaped `[x](command:...)` in a label of ours became a link of its own
 * (and `![x](https://...)` a remote image).
 */
const BRACKETS: Record<string, string> = { '[': '&#91;', ']': '&#93;' };

/**
 * `text` as Markdown text: syntax characters escaped, so no link, command, image, code span,
 * emphasis, HTML or table cell boundary can start in it, in the text or inside a link label of
 * ours, as `marked` (VS Code's hovers and chat) and `markdown-it` (its preview) read it. Line
 * breaks become spaces unless `multiline` (then each line is escaped, and a blank line still
 * starts a paragraph, which is harmless).
 */
export function markdownText(text: string, options: { multiline?: boolean } = {}): string {
  const body = options.multiline ? text.replace(/\r\n?/g, '\n') : text.replace(/[\r\n]+/g, ' ');
  return body
    .replace(SYNTAX, '\\$&')
    .replace(ADDRESS, '\\$&')
    .replace(/[[\]]/g, (bracket) => BRACKETS[bracket]);
}

/**
 * `text` as one inline code span: fenced by one more backtick than its longest run of backticks,
 * padded with a space where it starts or ends with a backtick, line breaks as spaces (a blank
 * line would end the paragraph, and the span with it).
 */
export function markdownCode(text: string): string {
  const body = text.replace(/[\r\n]+/g, ' ');
  let longest = 0;
  for (const run of body.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = '`'.repeat(longest + 1);
  const pad =
    body === '' || body.startsWith('`') || body.endsWith('`') || (body.startsWith(' ') && body.endsWith(' '))
      ? ' '
      : '';
  return `${fence}${pad}${body}${pad}${fence}`;
}

/**
 * A link destination as written inside `(...)`: characters that could end it or start another
 * (parentheses, brackets, angle brackets, spaces, backslashes, line breaks) percent-encoded. Only for
 * destinations the tool makes itself (`file:` URIs of served files, `command:` URIs of its own
 * commands); never for a URI taken from the workspace.
 */
export function markdownLinkTarget(uri: string): string {
  return uri.replace(
    /[()[\]<>\\` \t\r\n\f\v]/g,
    (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`,
  );
}
