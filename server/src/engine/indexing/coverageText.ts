/**
 * Coverage in words (coverage.ts), the same in `wsctx index`, `wsctx doctor` and the editor's
 * status tooltip: one line of numbers per served folder, then the unread files by reason.
 */
import type { SourceKind } from '../model';
import { REASON_WORDS, UNREAD_REASONS, type FolderCoverage, type UnreadReason } from './coverage';

/** How a read file's source kind is said: "as docs", "as overviews"... */
const READ_AS: Readonly<Record<SourceKind, string>> = {
  catalog_doc: 'docs',
  repo_overview: 'overviews',
  epic_doc: 'epics',
  library: 'library',
  catalog_entity: 'catalog',
};

/** Unread counts by reason, in {@link UNREAD_REASONS} order. */
export function unreadCounts(coverage: FolderCoverage): [UnreadReason, number][] {
  const counts = new Map<UnreadReason, number>();
  for (const u of coverage.unread) counts.set(u.reason, (counts.get(u.reason) ?? 0) + 1);
  return UNREAD_REASONS.filter((r) => counts.has(r)).map((r) => [r, counts.get(r)!]);
}

/**
 * `read 41 of 43 documentation files (38 as docs, 3 as overviews); not read: 1 template, 1 vendored`.
 */
export function coverageSummary(coverage: FolderCoverage): string {
  const as = (Object.keys(READ_AS) as SourceKind[])
    .filter((kind) => coverage.readAs[kind])
    .map((kind) => `${coverage.readAs[kind]} as ${READ_AS[kind]}`);
  const unread = unreadCounts(coverage).map(([reason, n]) => `${n} ${REASON_WORDS[reason]}`);
  const files = `documentation file${coverage.files === 1 ? '' : 's'}`;
  return [
    `read ${coverage.read} of ${coverage.files} ${files}${as.length ? ` (${as.join(', ')})` : ''}`,
    ...(unread.length ? [`not read: ${unread.join(', ')}`] : []),
  ].join('; ');
}

/**
 * The unread files, one line per reason (`template: .github/ISSUE_TEMPLATE/bug.md, ...`), at
 * most `limit` paths a line and the rest counted; every path when `limit` is undefined.
 */
export function coverageListing(coverage: FolderCoverage, limit?: number): string[] {
  const lines: string[] = [];
  for (const [reason] of unreadCounts(coverage)) {
    const paths = coverage.unread.filter((u) => u.reason === reason).map((u) => u.path);
    const shown = limit === undefined ? paths : paths.slice(0, limit);
    const more = paths.length > shown.length ? ` and ${paths.length - shown.length} more` : '';
    lines.push(`${REASON_WORDS[reason]}: ${shown.join(', ')}${more}`);
  }
  return lines;
}
