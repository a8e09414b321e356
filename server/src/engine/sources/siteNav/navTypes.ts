/**
 * What the site navigation readers share: the pages of one documentation site, as read, and
 * what a reader gives back (pages in its order, the titles it gives them, problems). Navigation
 * orders and names pages; it never decides whether a page is read (every page of the site is).
 */
import type { MarkdownDocument } from '../../chunking/markdownSections';
import type { Problem } from '../../model';
import { compileGlob } from '../../workspace/globMatch';

/** One page of a site, read and parsed. */
export interface SitePage {
  /** Workspace-relative path. */
  path: string;
  text: string;
  doc: MarkdownDocument;
}

/** A page's place in a navigation: its path and the menu title the navigation gives it. */
export interface NavEntry {
  path: string;
  /** The navigation's title for the page; used only where the page has no title of its own. */
  title?: string;
}

/** What one navigation file (or set of them) says. */
export interface NavReading {
  /** Pages in navigation order; each path at most once. */
  entries: NavEntry[];
  /** The files read as navigation (not pages of the site: an mdBook's SUMMARY.md). */
  navFiles: string[];
  problems: Problem[];
  /** The site's start page when the configuration names one apart from its list (Antora's). */
  start?: string;
}

/**
 * Whether a path is one of the workspace's site navigation files (the `siteNav` source role). The
 * readers look their configuration up through it instead of asking the file source about every
 * name in every folder above a site: each such question would be remembered as a dependency of
 * the site, thousands of them in a large workspace.
 */
export type IsNavFile = (path: string) => boolean;

/** An empty reading. */
export function noReading(): NavReading {
  return { entries: [], navFiles: [], problems: [] };
}

/** Adds an entry unless its path is already in `entries` (tracked by `seen`). */
export function addEntry(entries: NavEntry[], seen: Set<string>, path: string, title?: string): void {
  if (seen.has(path)) return;
  seen.add(path);
  const clean = title?.trim();
  entries.push(clean ? { path, title: clean } : { path });
}

/** The folder part of a path ('' at the top). */
export function folderOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

/** `dir` and every folder above it, innermost first, ending with '' (the workspace's top). */
export function foldersUp(dir: string): string[] {
  const out: string[] = [];
  let current = dir;
  for (;;) {
    out.push(current);
    if (current === '') return out;
    current = folderOf(current);
  }
}

/** `dir/name` ('' joins to `name`). */
export function inFolder(dir: string, name: string): string {
  return dir === '' ? name : `${dir}/${name}`;
}

/**
 * A relative reference resolved against a folder (`..` and `.` read, `%20` decoded, `#anchor`
 * and `?query` dropped); null when it leaves the top or is an external address.
 */
export function resolveRelative(dir: string, ref: string): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(ref) || ref.startsWith('//')) return null;
  let target = ref.replace(/[#?].*$/, '').trim();
  if (target === '') return null;
  try {
    target = decodeURIComponent(target);
  } catch {
    // A malformed escape is kept as written.
  }
  const parts = target.startsWith('/') ? [] : dir === '' ? [] : dir.split('/');
  for (const segment of target.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (parts.length === 0) return null;
      parts.pop();
    } else parts.push(segment);
  }
  return parts.join('/');
}

/** True when `path` is `dir` itself or inside it. */
export function isInside(path: string, dir: string): boolean {
  return dir === '' || path === dir || path.startsWith(`${dir}/`);
}

/**
 * A glob of one path (`*` within a segment, `**` across segments, `?` one character, sets and
 * `{a,b}` as in every glob) as a matcher; for navigation patterns written in site configs,
 * matched against site-relative paths.
 */
export function navGlob(pattern: string): (path: string) => boolean {
  // The workspace's bounded automaton (workspace/globMatch.ts), not a regular expression built
  // from the pattern: a site config is workspace input, and `*a*a*a...` must not backtrack.
  return compileGlob(pattern, { dot: true });
}
