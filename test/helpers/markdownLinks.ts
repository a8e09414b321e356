/**
 * The links a Markdown text would render, read the way CommonMark reads them where it matters
 * here: backslash-escaped characters are text, code spans (a run of backticks to the next run of
 * the same length) are text, and what is left is searched for inline links `](target)` and
 * autolinks `<scheme:...>`. Tests assert that only the renderer's own links are there.
 */
export function linkTargets(markdown: string): string[] {
  let text = markdown.replace(/\\[\s\S]/g, 'x');
  text = text.replace(/(`+)(?!`)([\s\S]*?[^`])\1(?!`)/g, 'code');
  const inline = [...text.matchAll(/\]\(\s*<?([^)\s>]*)/g)].map((m) => m[1]);
  const auto = [...text.matchAll(/<([A-Za-z][A-Za-z0-9+.-]*:[^<>\s]*)>/g)].map((m) => m[1]);
  // A link reference definition, `[label]: target` at a line's start.
  const definitions = [...text.matchAll(/^ {0,3}\[[^\]]+\]:\s*(\S+)/gm)].map((m) => m[1]);
  return [...inline, ...auto, ...definitions];
}
