/**
 * Which documentation files discovery does not hand to the documentation sources, and why
 * (docs/configuration.md, "What is read"). Every Markdown, MDX, reStructuredText and AsciiDoc file
 * in a served folder is documentation, wherever it sits and whatever its folder is called, except:
 *
 * - **vendored**: inside someone else's code kept in the repository (`vendor/`, `third_party/`,
 *   `bower_components/`...; `node_modules` is never entered at all);
 * - **generated**: inside a site generator's or build's output (`_build/`, `_site/`, or a `dist/`,
 *   `build/`, `site/`, `public/`, `out/`, `target/` or `book/` folder that holds a built site's
 *   `index.html`, `sitemap.xml`, `404.html` or Sphinx's `.buildinfo`), or a file marked generated
 *   at its top (Go's `Code generated ... DO NOT EDIT.` line, or a first comment saying the file is
 *   generated or not to be edited);
 * - **template**: an issue or pull-request template (`.github/ISSUE_TEMPLATE/`,
 *   `PULL_REQUEST_TEMPLATE*`, `ISSUE_TEMPLATE*`, GitLab's `issue_templates/` and
 *   `merge_request_templates/`);
 * - **ignored**: by `.gitignore` or `sources.ignore` (files in an ignored folder are not counted:
 *   the folder is not entered).
 *
 * Such a file loses its documentation roles ({@link DOC_ROLES}); it is still read for any other
 * role it has (a generated `AGENTS.md` is still the agents' instructions). Each is recorded with
 * its reason so coverage can say what was not read. Everything here decides by a path's segments
 * or the first bytes already read for the binary check: no file is opened for it.
 */
import { docFileFormat } from '../chunking/docFormat';
import type { UnreadReason } from '../model';
import type { SourceRole } from './globs';

/** Why discovery did not keep a documentation file as documentation. */
export type DocSkipReason = Exclude<UnreadReason, 'unsupported-format' | 'another-role'>;

/** A documentation file discovery saw and did not keep as documentation. */
export interface SkippedDocFile {
  /** Workspace-relative path. */
  path: string;
  /** Name of the workspace folder holding it. */
  folder: string;
  reason: DocSkipReason;
}

/** The roles that make a file a documentation page (sites, docs, overviews, Markdown kept for them). */
export const DOC_ROLES: ReadonlySet<SourceRole> = new Set<SourceRole>(['docs', 'overview', 'markdown', 'techdocs']);

/** True when a file's name says it is documentation (Markdown, MDX, reStructuredText, AsciiDoc). */
export function isDocFile(path: string): boolean {
  return docFileFormat(path) !== undefined;
}

/** `roles` without the documentation roles (the same array when it holds none). */
export function withoutDocRoles(roles: SourceRole[]): SourceRole[] {
  return roles.some((role) => DOC_ROLES.has(role)) ? roles.filter((role) => !DOC_ROLES.has(role)) : roles;
}

/** True when `roles` holds a documentation role. */
export function hasDocRole(roles: readonly SourceRole[]): boolean {
  return roles.some((role) => DOC_ROLES.has(role));
}

/** Folders of code kept from elsewhere (package managers' and vendoring conventions). */
const VENDORED_DIRS: ReadonlySet<string> = new Set([
  'vendor',
  'third_party',
  'third-party',
  'thirdparty',
  'bower_components',
  'jspm_packages',
  'site-packages',
]);

/** Output folders of site generators whatever they hold: Sphinx's `_build`, Jekyll's `_site`. */
const OUTPUT_DIRS: ReadonlySet<string> = new Set(['_build', '_site']);

/** Folders that are build output when they hold a built site (OUTPUT_MARKERS). */
const MAYBE_OUTPUT_DIRS: ReadonlySet<string> = new Set(['dist', 'build', 'site', 'public', 'out', 'target', 'book']);

/** Files a built site or Sphinx build leaves at its top. */
const OUTPUT_MARKERS: ReadonlySet<string> = new Set([
  'index.html',
  'sitemap.xml',
  'sitemap.xml.gz',
  '404.html',
  '.buildinfo',
]);

/**
 * Why a folder's files are not documentation, from its name and whether it holds an entry of a
 * given name: `vendored`, `generated`, or undefined for an ordinary folder.
 */
export function folderSkipReason(
  name: string,
  holds: (entry: string) => boolean,
): 'vendored' | 'generated' | undefined {
  if (VENDORED_DIRS.has(name)) return 'vendored';
  if (OUTPUT_DIRS.has(name)) return 'generated';
  if (MAYBE_OUTPUT_DIRS.has(name)) for (const marker of OUTPUT_MARKERS) if (holds(marker)) return 'generated';
  return undefined;
}

/**
 * Why a documentation file is not documentation, from its path alone (relative to its
 * repository root) and a test of whether a path exists: its folders' (folderSkipReason), else a
 * template's. For a listing of paths (a git tree), where no folder is walked.
 */
export function docPathSkipReason(
  repoRelPath: string,
  exists: (repoRelPath: string) => boolean,
): 'vendored' | 'generated' | 'template' | undefined {
  const segments = repoRelPath.split('/');
  for (let i = 0; i < segments.length - 1; i++) {
    const dir = segments.slice(0, i + 1).join('/');
    const why = folderSkipReason(segments[i], (entry) => exists(`${dir}/${entry}`));
    if (why) return why;
  }
  return isTemplatePath(repoRelPath) ? 'template' : undefined;
}

/**
 * True when a documentation file is an issue or pull-request template, by its path relative to
 * its repository root (GitHub's and GitLab's conventions, any case).
 */
export function isTemplatePath(repoRelPath: string): boolean {
  const lower = repoRelPath.toLowerCase();
  const slash = lower.lastIndexOf('/');
  const name = lower.slice(slash + 1);
  if (name.startsWith('pull_request_template') || name.startsWith('issue_template')) return true;
  const dirs = lower.slice(0, Math.max(0, slash)).split('/');
  return dirs.some(
    (dir) =>
      dir === 'issue_template' ||
      dir === 'pull_request_template' ||
      dir === 'discussion_template' ||
      dir === 'issue_templates' ||
      dir === 'merge_request_templates',
  );
}

/** Bytes of a file's head read for the generated marker: front matter and a first comment fit. */
export const GENERATED_SNIFF_BYTES = 512;

/** Go's convention (`go help generate`), in any comment syntax. */
const GO_GENERATED = /\bCode generated\b[^\n]*\bDO NOT EDIT\b/;

/** What a first comment says of a generated file. */
const GENERATED_WORDS =
  /\b(?:auto-?generated|automatically generated|generated (?:automatically|by|from|with|using)|this (?:file|page|document) (?:is|was) generated|do not (?:edit|modify))\b/i;

/** A comment opening a line, in the documentation formats: HTML/Markdown, MDX, rST, AsciiDoc. */
const COMMENT_START = /^(?:<!--|\[\/\/\]: #|\{\/\*|\.\.\s|\/\/)/;

/**
 * True when a documentation file says at its top that it is generated: Go's `Code generated ...
 * DO NOT EDIT.` within its first {@link GENERATED_SNIFF_BYTES} bytes, or a first line (after any
 * front matter) that is a comment saying it is generated or not to be edited. A generator comment
 * further down (a generated list inside a written page) does not make the page generated.
 */
export function isMarkedGenerated(head: string): boolean {
  const text = head.slice(0, GENERATED_SNIFF_BYTES).replace(/^\uFEFF/, '');
  if (GO_GENERATED.test(text)) return true;
  const lines = text.split(/\r?\n/);
  let at = 0;
  const fence = lines[0]?.trim();
  if (fence === '---' || fence === '+++') {
    const end = lines.findIndex((line, i) => i > 0 && line.trim() === fence);
    if (end < 0) return false;
    at = end + 1;
  }
  while (at < lines.length && lines[at].trim() === '') at++;
  if (at >= lines.length) return false;
  const first = lines[at].trim();
  if (!COMMENT_START.test(first)) return false;
  // The comment alone: a block comment's text may run on for a few lines after its opening.
  const comment = [first];
  const closes = (line: string) => /-->|\*\/\}/.test(line);
  if (/^(?:<!--|\{\/\*)/.test(first) && !closes(first)) {
    for (let i = at + 1; i < Math.min(lines.length, at + 4); i++) {
      comment.push(lines[i]);
      if (closes(lines[i])) break;
    }
  }
  return GENERATED_WORDS.test(comment.join(' '));
}
