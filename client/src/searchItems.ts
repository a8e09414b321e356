/**
 * The live search QuickPick's rows: one per ranked passage, the passage's own words first (the
 * label, the row's first line), its score as one short item beside them, and where it is (`Title ›
 * Heading · path:lines`) as the second line. How the score was made is the results view's job (the
 * title button), where every `why[]` term has room. Pure; searchPick.ts shows them.
 *
 * Imports no `vscode`.
 */
import type { SearchPassage, SearchResult } from '../../shared/protocol';

/** Wait after the last keystroke before asking the server. Default 200 ms. */
export const SEARCH_DEBOUNCE_MS = 200;
/** Questions shorter than this (trimmed) are not sent. Default 2 characters. */
export const MIN_QUESTION_CHARS = 2;

export interface SearchRow {
  label: string;
  description: string;
  detail: string;
  /** The passage behind the row; undefined for the "nothing found" row. */
  passage?: SearchPassage;
}

/** `score 1.15`: the one short item beside the passage's words. */
export function scoreItem(passage: Pick<SearchPassage, 'score'>): string {
  return `score ${passage.score.toFixed(2)}`;
}

/**
 * Workspace text as a QuickPick label or detail shows it: VS Code draws `$(name)` as an icon
 * there, so a passage about `$(pwd)` would lose its words; escaped, it shows as written.
 */
export function pickText(text: string): string {
  return text.replace(/\$\(/g, '\\$(');
}

export function searchRows(result: SearchResult): SearchRow[] {
  if (result.passages.length === 0) {
    const why =
      result.notice ??
      (result.degraded.length ? `degraded: ${result.degraded.join(', ')}` : 'Try other words, or an entity name.');
    return [{ label: `No passages match "${result.question}"`, description: '', detail: why }];
  }
  return result.passages.map((passage) => ({
    // A section with no words under its heading shows its heading.
    label: pickText(passage.preview || passage.label),
    description: scoreItem(passage),
    detail: pickText(`${passage.label} · ${passage.path}:${passage.startLine}-${passage.endLine}`),
    passage,
  }));
}

/** The QuickPick's title once an answer is in: how many passages, and anything degraded. */
export function searchTitle(result: SearchResult): string {
  const n = result.passages.length;
  const parts = [`Workspace context: ${n} ${n === 1 ? 'passage' : 'passages'}`];
  if (result.degraded.length) parts.push(`degraded: ${result.degraded.join(', ')}`);
  return parts.join(' · ');
}

/** Whether a typed value is worth a request. */
export function isSearchable(value: string): boolean {
  return value.trim().length >= MIN_QUESTION_CHARS;
}

/**
 * A `file:` URI with `#Lstart-Lend` (a passage's `uri`) split into the file URI and 1-based lines;
 * a URI without the fragment opens at line 1.
 */
export function splitSourceUri(uri: string): { file: string; startLine: number; endLine: number } {
  const hash = uri.indexOf('#');
  if (hash < 0) return { file: uri, startLine: 1, endLine: 1 };
  const match = /^L(\d+)(?:-L?(\d+))?$/.exec(uri.slice(hash + 1));
  const startLine = match ? Number(match[1]) : 1;
  const endLine = match?.[2] ? Number(match[2]) : startLine;
  return { file: uri.slice(0, hash), startLine, endLine };
}
