/**
 * The links and images a Markdown text renders to, read from the HTML of the two libraries VS Code
 * renders Markdown with: `marked` (hovers, chat, the editor's Markdown strings; GFM on, so bare
 * `https://` and `www.` addresses and e-mail addresses become links) and `markdown-it` (the
 * Markdown preview, configured as VS Code's: raw HTML allowed, linkify on with fuzzy links off,
 * `file:` links allowed). Tests assert that only the renderer's own links are there, whatever the workspace
 * wrote.
 */
import { marked } from 'marked';
import MarkdownIt from 'markdown-it';

const markdownIt = new MarkdownIt({ html: true, linkify: true });
// As VS Code's Markdown engine has it: no fuzzy links (`README.md` is no address), and `file:`
// links (refused by markdown-it's default) allowed.
markdownIt.linkify.set({ fuzzyLink: false });
const defaultValidate = markdownIt.validateLink.bind(markdownIt);
markdownIt.validateLink = (url: string) => defaultValidate(url) || /^file:/i.test(url);

/** `href` of every link and `src` of every image (as `image:<src>`) in rendered HTML, in order. */
function targetsIn(html: string): string[] {
  const decode = (value: string) =>
    value
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
  return [...html.matchAll(/<(a|img)\s[^>]*?\b(href|src)="([^"]*)"/gi)].map((m) =>
    m[1].toLowerCase() === 'img' ? `image:${decode(m[3])}` : decode(m[3]),
  );
}

/** What each library renders `markdown`'s links and images to. */
export function renderedTargets(markdown: string): { marked: string[]; markdownIt: string[] } {
  return {
    marked: targetsIn(marked.parse(markdown, { async: false, gfm: true })),
    markdownIt: targetsIn(markdownIt.render(markdown)),
  };
}

/**
 * The links and images `markdown` renders to, the same in both libraries (a difference throws:
 * one of them would show a link the other does not).
 */
export function linkTargets(markdown: string): string[] {
  const both = renderedTargets(markdown);
  if (JSON.stringify(both.marked) !== JSON.stringify(both.markdownIt))
    throw new Error(
      `marked and markdown-it render different links:\n  marked:      ${JSON.stringify(both.marked)}\n  markdown-it: ${JSON.stringify(both.markdownIt)}\nof:\n${markdown}`,
    );
  return both.marked;
}
