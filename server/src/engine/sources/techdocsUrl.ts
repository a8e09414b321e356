/**
 * `backstage.io/techdocs-ref: url:<address>` read from disk when the address names a repository
 * the workspace holds (workspace/remotes.ts): the annotation in a plugin monorepo typically points
 * at the very repository its catalog file sits in (`url:https://github.com/org/plugins/tree/main/
 * plugins/foo`), and that folder is on disk.
 *
 * Browse URLs of the common hosts are understood, with any branch, tag or commit:
 *
 * | host | form |
 * | --- | --- |
 * | GitHub, Gitea, Forgejo, GitHub Enterprise | `.../tree/REF/PATH`, `.../blob/REF/PATH`, `.../src/branch\|tag\|commit/REF/PATH` |
 * | GitLab (also self-hosted, subgroups) | `.../-/tree/REF/PATH`, `.../-/blob/REF/PATH` |
 * | Bitbucket Cloud | `.../src/REF/PATH` |
 * | Bitbucket Server / Data Center | `.../projects/P/repos/R/browse/PATH?at=REF` |
 * | Azure DevOps | `.../_git/R?path=/PATH&version=GBREF` |
 *
 * A REF may hold slashes (`feature/x`): the split chosen is the first one whose path exists in
 * the workspace. A path naming a file (`.../blob/main/docs/mkdocs.yml`) means its folder. The
 * folder is read as it is on disk: the checkout's branch, not necessarily the URL's REF.
 */
import type { RepositoryRemotes } from '../workspace/remotes';
import { repositoryId } from '../workspace/remotes';
import { dirName, joinPath } from './paths';

/** Where a `url:` ref leads. */
export type UrlTarget =
  /** A folder of a served repository, workspace-relative. */
  | { kind: 'local'; dir: string }
  /**
   * Not on disk: another repository (`repository` is its id, or the URL itself when it names no
   * repository), or a part of a served repository outside the served folders (`outsideServed`).
   */
  | { kind: 'elsewhere'; repository: string; outsideServed?: boolean };

/** Path segments that end a repository's part of a browse URL, per host family. */
const BROWSE_MARKERS = new Set(['tree', 'blob', 'raw', 'src', 'browse', '-']);

/**
 * Resolves a `url:` target against the served repositories' remotes. `exists(dir)` says whether
 * a workspace-relative folder holds any file (it picks the REF/PATH split). `catalogRoot` is the
 * repository holding the catalog file, preferred when two served checkouts share a remote.
 */
export function resolveTechDocsUrl(
  url: string,
  remotes: readonly RepositoryRemotes[],
  exists: (dir: string) => boolean,
  catalogRoot?: string,
): UrlTarget {
  const parsed = parseBrowseUrl(url);
  if (!parsed) return { kind: 'elsewhere', repository: url };
  const holders = remotes
    .map((remote) => ({ remote, match: remote.repositories.find((id) => startsWithSegments(parsed.id, id)) }))
    .filter((h): h is { remote: RepositoryRemotes; match: string } => h.match !== undefined)
    // The longest repository id that prefixes the URL (GitLab subgroups), the catalog's own first.
    .sort(
      (a, b) =>
        b.match.length - a.match.length ||
        Number(b.remote.root === catalogRoot) - Number(a.remote.root === catalogRoot),
    );
  if (holders.length === 0) return { kind: 'elsewhere', repository: parsed.repositoryGuess };
  const { remote, match } = holders[0];
  const rest = parsed.segments.slice(match.split('/').length);
  const splits = inRepositoryPaths(rest, parsed.query);
  for (const inRepo of splits.tried) {
    const local = localDir(remote, inRepo);
    if (local !== null && (exists(local) || splits.count === 1)) return { kind: 'local', dir: local };
  }
  // No split names a folder on disk: the first, so the reader reports it as missing; or, when
  // it lies outside the served part of the repository, that.
  const first = localDir(remote, splits.first);
  if (first !== null) return { kind: 'local', dir: first };
  return { kind: 'elsewhere', repository: match, outsideServed: true };
}

/**
 * Longest repository path a split is tried as: 4,096 characters (a path on disk is no longer on
 * Linux, 1,024 on macOS). Past it no split can name a folder of the workspace, so none is built:
 * a ref of 20,000 segments costs one pass over its text, not 20,000 paths of 20,000 segments.
 */
const MAX_FOLDER_PATH = 4096;

interface BrowseUrl {
  /** `host/segment/...`, lower-cased, for matching repository ids. */
  id: string;
  /** The URL's host and path segments, case kept (`[host, ...path]`). */
  segments: string[];
  query: URLSearchParams;
  /** The repository part as an id (the path before the first browse marker). */
  repositoryGuess: string;
}

function parseBrowseUrl(url: string): BrowseUrl | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (!/^https?:$/.test(parsed.protocol) || !parsed.hostname) return null;
  let path: string;
  try {
    path = decodeURIComponent(parsed.pathname);
  } catch {
    path = parsed.pathname;
  }
  const pathSegments = path.split('/').filter((s) => s !== '');
  let host = parsed.hostname.toLowerCase();
  // Azure DevOps' older host names the organisation in the host (remotes.ts brings both to one form).
  const visualStudio = /^([^.]+)\.visualstudio\.com$/.exec(host);
  if (visualStudio) {
    host = 'dev.azure.com';
    pathSegments.unshift(visualStudio[1]);
  }
  const segments = [host, ...pathSegments];
  const markerAt = pathSegments.findIndex((s, i) => i >= 2 && BROWSE_MARKERS.has(s));
  const repoPart = markerAt < 0 ? pathSegments : pathSegments.slice(0, markerAt);
  const guess = repositoryId(`https://${host}/${repoPart.join('/')}`) ?? url;
  return {
    id: segments
      .map((s) => s.toLowerCase())
      .join('/')
      .replace(/\.git$/, ''),
    segments,
    query: parsed.searchParams,
    repositoryGuess: guess,
  };
}

function startsWithSegments(id: string, prefix: string): boolean {
  return id === prefix || id.startsWith(`${prefix}/`);
}

/** The repository paths a URL may name (inRepositoryPaths). */
interface Splits {
  /** One per REF/PATH split (a REF may hold slashes), most likely first, each of at most {@link MAX_FOLDER_PATH} characters. */
  tried: string[];
  /** The most likely split's path, whatever its length: the one reported when none exists. */
  first: string;
  /** How many splits the URL has, tried or not. */
  count: number;
}

/**
 * The repository paths a URL's segments after the repository may name. '' is the repository's
 * top. Linear in the URL's length: the splits are measured from the end, and only those short
 * enough to name a folder are built.
 */
function inRepositoryPaths(rest: readonly string[], query: URLSearchParams): Splits {
  const one = (path: string): Splits => ({
    tried: path.length <= MAX_FOLDER_PATH ? [path] : [],
    first: path,
    count: 1,
  });
  const azurePath = query.get('path');
  if (rest[0] === '_git' || azurePath !== null) return one(clean(azurePath ?? ''));
  if (rest.length === 0) return one('');
  let refAndPath: readonly string[];
  const [marker, next] = rest;
  if (marker === '-' && (next === 'tree' || next === 'blob')) refAndPath = rest.slice(2);
  else if (marker === 'src' && (next === 'branch' || next === 'tag' || next === 'commit')) refAndPath = rest.slice(2);
  else if (marker === 'tree' || marker === 'blob' || marker === 'raw' || marker === 'src') refAndPath = rest.slice(1);
  // Bitbucket Server: the ref is in `?at=`, the path follows `browse` directly.
  else if (marker === 'browse') return one(clean(rest.slice(1).join('/')));
  else return one(clean(rest.join('/')));
  if (refAndPath.length <= 1) return one('');
  // The shortest paths are at the end: walk back while the path stays short enough to exist.
  let shortestTried = refAndPath.length;
  for (let k = refAndPath.length - 1, length = -1; k >= 1; k--) {
    length += refAndPath[k].length + 1;
    if (length > MAX_FOLDER_PATH) break;
    shortestTried = k;
  }
  const tried: string[] = [];
  for (let k = shortestTried; k < refAndPath.length; k++) tried.push(clean(refAndPath.slice(k).join('/')));
  return {
    tried,
    first: shortestTried === 1 ? tried[0] : clean(refAndPath.slice(1).join('/')),
    count: refAndPath.length - 1,
  };
}

/** A repository path without slashes at its ends; a file's folder when it names a file. */
function clean(path: string): string {
  // Trimmed by hand: a pattern like `/+$` tries every run of slashes in turn (quadratic).
  let start = 0;
  let end = path.length;
  while (start < end && path[start] === '/') start++;
  while (end > start && path[end - 1] === '/') end--;
  const trimmed = path.slice(start, end);
  return /\.(ya?ml|md|markdown)$/i.test(trimmed) ? dirName(trimmed) : trimmed;
}

/** The workspace-relative folder of a repository path, or null when it is outside the served root. */
function localDir(remote: RepositoryRemotes, inRepo: string): string | null {
  const prefix = remote.prefix;
  const withSlash = inRepo === '' ? '' : `${inRepo}/`;
  if (prefix !== '' && !withSlash.startsWith(prefix)) return null;
  const below = withSlash.slice(prefix.length).replace(/\/$/, '');
  if (below === '') return remote.root;
  return remote.root === '' ? below : joinPath(remote.root, below);
}
