/**
 * The library commands' text (`toc`, `section`, `search`, `page`, `file`) as a person at the
 * terminal reads it: every document named by its id also by its file (`[doc 3f2a9c1e ·
 * .context/guides/refunds.md]`), and the tools' calls as the commands that make them
 * (`wsctx toc --document 3f2a9c1e`, cliTerms.ts). The tools' own text, which agents read, names
 * ids and tool calls only; the paths come from the same answer's structured content.
 */
import { commandsInCliTerms } from './cliTerms';

/** Every `{ id, path }` pair in a tool's answer (documents, cut documents, pinned ones, a section's document). */
function pathsById(answer: unknown, found = new Map<string, string>()): Map<string, string> {
  if (Array.isArray(answer)) for (const item of answer) pathsById(item, found);
  else if (answer && typeof answer === 'object') {
    const { id, path } = answer as { id?: unknown; path?: unknown };
    if (typeof id === 'string' && typeof path === 'string') found.set(id, path);
    for (const value of Object.values(answer)) if (value && typeof value === 'object') pathsById(value, found);
  }
  return found;
}

/** `text` (a library tool's rendering of `answer`) with each document's file beside its id, in the command line's words. */
export function libraryText(text: string, answer: unknown): string {
  const paths = pathsById(answer);
  const withPaths = text.replace(/\[doc ([0-9a-f]{4,64})\]/g, (whole, id: string) =>
    paths.has(id) ? `[doc ${id} · ${paths.get(id)}]` : whole,
  );
  return commandsInCliTerms(withPaths);
}
