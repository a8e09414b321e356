/**
 * The comments and strings of a source file from the best reader this platform runs: tree-sitter
 * (syntaxTree.ts) when its runtime and the language's grammar load, the plain scanner
 * (plainComments.ts) otherwise and for languages with no grammar here. Null for files that are not
 * source code (prose, unknown extensions): every word of those is text.
 */
import { sourceLanguageOf, type CommentAndStringFinder, type TextRange } from './languages';
import { scanCommentsAndStrings } from './plainComments';
import { sharedSyntaxTrees, type SyntaxTrees } from './syntaxTree';

/** Waits for tree-sitter's runtime and grammar on the first file of a language. */
export async function sourceCommentAndStringRanges(
  path: string,
  text: string,
  trees: SyntaxTrees = sharedSyntaxTrees(),
): Promise<TextRange[] | null> {
  const language = sourceLanguageOf(path);
  if (!language) return null;
  return (await trees.commentAndStringRanges(path, text)) ?? scanCommentsAndStrings(language, text);
}

/**
 * Answers at once, for callers that cannot wait (an editor request on a buffer): tree-sitter when
 * the language's grammar is already loaded, else the plain scanner while this call starts loading
 * it, so the next answer comes from tree-sitter.
 */
export function sourceCommentAndStringRangesNow(
  path: string,
  text: string,
  trees: SyntaxTrees = sharedSyntaxTrees(),
): TextRange[] | null {
  const language = sourceLanguageOf(path);
  if (!language) return null;
  return trees.commentAndStringRangesNow(path, text) ?? scanCommentsAndStrings(language, text);
}

/** Both readers behind the one interface. */
export function sourceCommentsAndStrings(trees: SyntaxTrees = sharedSyntaxTrees()): CommentAndStringFinder {
  return { commentAndStringRanges: (path, text) => sourceCommentAndStringRanges(path, text, trees) };
}
