/**
 * The pinned documents head a session's first answer, and every CLI run is a new session: printed
 * by every `section` and `search`, they buried the answer asked for. The CLI prints them with
 * `wsctx toc` (the map, where a person starts) and elsewhere says in one closing line that they
 * exist. `--json` keeps the tool's own answer, pinned documents included.
 */
import type { PinnedDocument } from '../../library/view/pinned';

export function renderWithoutPinned<Output extends { pinned?: PinnedDocument[] }>(
  output: Output,
  render: (output: Output) => string,
): string {
  const pinned = output.pinned ?? [];
  const text = render({ ...output, pinned: undefined });
  if (pinned.length === 0) return text;
  return `${text}\n\n(${pinned.length} pinned document${pinned.length === 1 ? ' applies' : 's apply'} to every task: ${pinned.map((p) => `"${p.title}"`).join(', ')}; wsctx toc prints ${pinned.length === 1 ? 'it' : 'them'}.)`;
}
