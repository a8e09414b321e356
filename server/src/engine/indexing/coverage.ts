/**
 * Coverage: of the documentation files in each served folder (every Markdown, MDX,
 * reStructuredText and AsciiDoc file discovery saw), how many the index reads, as what, and why
 * each of the others is not read. `wsctx index`, `wsctx doctor` and the editor's status say it in
 * the same words (coverageText.ts), so a layout nothing reads is never "ok ... 0 problems".
 *
 * A file is read when a document was made of it, whatever the source (a docs page, an overview,
 * a library page, an epic). The others, by reason:
 * - from discovery (workspace/docFiles.ts): `ignored`, `vendored`, `generated`, `template`,
 *   `too-big`, `unreadable` (binary, or refused by the file system), `not-in-sources` (a user's
 *   `sources.docs` leaves it out);
 * - from the producers: `unsupported-format` (a format no splitter reads yet, chunking/docFormat.ts),
 *   `unreadable` (listed but not read this pass), `another-role` (claimed by another source that
 *   made no document of it), `not-in-sources`.
 *
 * A folder of a served folder that holds many documentation files and reads few of them, for
 * reasons a user can change (not the deliberate skips: ignored, vendored, generated, template),
 * gets a `workspace.docs-unread` warning naming the folder, the counts and what to do.
 */
import { docFileFormat, splitsFormat } from '../chunking/docFormat';
import type { FolderCoverage, Problem, SourceKind, UnreadReason } from '../model';

export type { FolderCoverage, UnreadDocFile, UnreadReason } from '../model';
import type { SkippedDocFile } from '../workspace/docFiles';
import type { DiscoveredFile } from '../workspace/discovery';
import type { WorkspaceFolderRef as WorkspaceFolder } from '../workspace/paths';
import { hasDocRole } from '../workspace/docFiles';

export const DOCS_UNREAD = 'workspace.docs-unread';

/** Reasons in the order they are listed: what a user may fix first, deliberate skips last. */
export const UNREAD_REASONS: readonly UnreadReason[] = [
  'not-in-sources',
  'unsupported-format',
  'too-big',
  'unreadable',
  'another-role',
  'ignored',
  'vendored',
  'generated',
  'template',
];

/** Skips a user chose or that are someone else's files: never a reason to warn. */
const DELIBERATE: ReadonlySet<UnreadReason> = new Set<UnreadReason>([
  'ignored',
  'vendored',
  'generated',
  'template',
  'another-role',
]);

/** A folder warns when it holds at least this many documentation files it could read... */
export const UNREAD_WARN_MIN_FILES = 10;
/** ...and reads fewer than this share of them. */
export const UNREAD_WARN_SHARE = 0.5;

export interface CoverageInput {
  folders: readonly WorkspaceFolder[];
  /** Files discovery kept (their roles tell what read them). */
  files: readonly DiscoveredFile[];
  /** Documentation files discovery did not keep as documentation. */
  skipped: readonly SkippedDocFile[];
  /** Paths in the file table (a kept file missing from it could not be read this pass). */
  inTable: (path: string) => boolean;
  /** The source kind of the document made of each path. */
  docKinds: ReadonlyMap<string, SourceKind>;
}

/** What coverage found: each served folder's numbers, and the warnings they call for. */
export interface Coverage {
  /** In the folders' order. */
  folders: FolderCoverage[];
  problems: Problem[];
}

/** Read and unread documentation files of one top folder (see {@link topFolderOf}). */
interface TopFolder {
  files: number;
  read: number;
  unread: Map<UnreadReason, number>;
}

/** Each served folder's coverage, and a warning for each top folder that reads few of its files. */
export function documentationCoverage(input: CoverageInput): Coverage {
  const byFolder = new Map<string, FolderCoverage>(
    input.folders.map((f) => [f.name, { folder: f.name, files: 0, read: 0, readAs: {}, unread: [] }]),
  );
  const tops = new Map<string, TopFolder>();
  const topOf = (path: string): TopFolder => {
    const top = topFolderOf(input.folders, path);
    let t = tops.get(top);
    if (!t) tops.set(top, (t = { files: 0, read: 0, unread: new Map() }));
    return t;
  };
  const seen = new Set<string>();
  const count = (folder: string, path: string, reason: UnreadReason | undefined) => {
    const coverage = byFolder.get(folder);
    if (!coverage || seen.has(path)) return;
    seen.add(path);
    coverage.files++;
    const kind = input.docKinds.get(path);
    if (kind !== undefined) {
      coverage.read++;
      coverage.readAs[kind] = (coverage.readAs[kind] ?? 0) + 1;
      const top = topOf(path);
      top.files++;
      top.read++;
      return;
    }
    const why = reason ?? 'another-role';
    coverage.unread.push({ path, reason: why });
    if (DELIBERATE.has(why)) return;
    const top = topOf(path);
    top.files++;
    top.unread.set(why, (top.unread.get(why) ?? 0) + 1);
  };
  for (const file of input.files) {
    const format = docFileFormat(file.path);
    if (format === undefined) continue;
    // Asked only of a file no document was made of (`count` looks the document up first).
    const reason = input.docKinds.has(file.path)
      ? undefined
      : unreadReason(file, splitsFormat(format), input.inTable(file.path));
    count(file.folder, file.path, reason);
  }
  for (const skip of input.skipped) count(skip.folder, skip.path, skip.reason);
  const order = new Map(UNREAD_REASONS.map((reason, i) => [reason, i]));
  for (const coverage of byFolder.values())
    coverage.unread.sort((a, b) => order.get(a.reason)! - order.get(b.reason)! || compare(a.path, b.path));

  const problems: Problem[] = [];
  for (const [top, t] of [...tops].sort((a, b) => compare(a[0], b[0]))) {
    if (t.unread.size === 0 || t.files < UNREAD_WARN_MIN_FILES || t.read >= t.files * UNREAD_WARN_SHARE) continue;
    problems.push({
      path: top,
      line: 1,
      severity: 'warning',
      code: DOCS_UNREAD,
      message: unreadMessage(top, input.folders, t.files, t.read, t.unread),
    });
  }
  return { folders: [...byFolder.values()], problems };
}

/** Why a kept documentation file made no document (asked only when none was made of it). */
function unreadReason(file: DiscoveredFile, splits: boolean, inTable: boolean): UnreadReason {
  if (!inTable) return 'unreadable';
  if (!splits) return 'unsupported-format';
  if (file.roles.includes('docs')) return 'another-role';
  // Kept for a role that reads no documentation of its own (`markdown`, an overview that lost to
  // `overview.md`) or for another source that made nothing of it.
  return hasDocRole(file.roles) && file.roles.every((role) => role === 'markdown' || role === 'overview')
    ? 'not-in-sources'
    : 'another-role';
}

function unreadMessage(
  top: string,
  folders: readonly WorkspaceFolder[],
  files: number,
  read: number,
  unread: ReadonlyMap<UnreadReason, number>,
): string {
  const where = top === '' || folders.some((f) => f.name === top) ? `The top of ${top || 'the folder'}` : `${top}/`;
  const reasons = UNREAD_REASONS.filter((r) => unread.has(r)).map((r) => `${unread.get(r)} ${REASON_WORDS[r]}`);
  const advice = [...unread.keys()].map((r) => ADVICE[r]).filter((a): a is string => a !== undefined);
  return `${where} holds ${files} documentation files and ${read} of them ${read === 1 ? 'is' : 'are'} read (not read: ${reasons.join(', ')}). ${[...new Set(advice)].join(' ')}`.trim();
}

/** A reason as the outputs print it. */
export const REASON_WORDS: Readonly<Record<UnreadReason, string>> = {
  'not-in-sources': 'not in sources.docs',
  'unsupported-format': 'unsupported format',
  'too-big': 'too big',
  unreadable: 'unreadable',
  'another-role': 'another role',
  ignored: 'ignored',
  vendored: 'vendored',
  generated: 'generated',
  template: 'template',
};

const ADVICE: Partial<Record<UnreadReason, string>> = {
  'not-in-sources':
    'sources.docs in .wsctx.yaml leaves them out: widen it (its default reads every Markdown, MDX, reStructuredText and AsciiDoc file) or remove the key.',
  'unsupported-format': 'Their format is not split into sections yet: they are found but not read.',
  'too-big': 'Files over maxFileSize (2 MiB by default) are not read.',
  unreadable: 'wsctx index lists why each could not be read.',
};

/**
 * The folder a path is grouped under: its first folder below the served folder, or the served
 * folder's own top for a file directly in it (workspace-relative, folder prefix kept).
 */
function topFolderOf(folders: readonly WorkspaceFolder[], path: string): string {
  const prefixed = folders.length > 1;
  const segments = path.split('/');
  const depth = prefixed ? 2 : 1;
  if (segments.length <= depth) return prefixed ? segments[0] : '';
  return segments.slice(0, depth).join('/');
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
