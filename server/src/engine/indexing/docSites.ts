/**
 * Which documentation sites an index pass reads besides the ones catalog entities name
 * (sources/techdocs.ts): every `mkdocs.yml` no entity's annotation led to, and the Markdown of
 * `docs` folders (the `docs` source globs) that no site claims. A documentation folder in a
 * repository without any catalog is read this way, attached to no entity; one inside a package
 * is attached to the package's entities (placeOwners.ts).
 *
 * Also here: the `url:` TechDocs refs that lead elsewhere, reported once per repository rather
 * than once per entity (a monorepo's 40 plugins pointing at one docs repository are one fact).
 */
import type { EntityKey, Problem } from '../model';
import { TECHDOCS_ANNOTATION, type TechDocsResult } from '../sources/techdocs';
import type { UrlTarget } from '../sources/techdocsUrl';
import { dirName } from '../sources/paths';
import type { DiscoveredRoot } from '../workspace/discovery';
import { RootMap } from '../workspace/rootMap';
import type { PlaceOwners } from './placeOwners';

/** A site no entity's annotation names: an mkdocs.yml, or a docs folder read without one. */
export type StandaloneSite =
  | { kind: 'mkdocs'; key: string; configPath: string; owners: readonly EntityKey[] }
  | { kind: 'docs'; key: string; docsDir: string; files: readonly string[]; owners: readonly EntityKey[] };

/** What entity sites (and earlier standalone ones) already read. */
export interface ClaimedSites {
  /** mkdocs.yml files read. */
  configs: Set<string>;
  /** docs_dir folders read. */
  docsDirs: Set<string>;
}

/** Repository roots by path, for "which repository holds this file". */
export function rootLookup(roots: readonly DiscoveredRoot[]): (path: string) => string {
  const map = new RootMap(roots);
  return (path) => map.innermost(path)?.root ?? '';
}

/**
 * The mkdocs.yml files (the `techdocs` globs, in path order) no entity site read, each a site of
 * its own, attached to the entities owning its folder.
 */
export function mkdocsSites(
  configs: readonly string[],
  claimed: ClaimedSites,
  owners: PlaceOwners,
  rootOf: (path: string) => string,
): StandaloneSite[] {
  const sites: StandaloneSite[] = [];
  for (const path of configs) {
    if (claimed.configs.has(path)) continue;
    const folder = dirName(path);
    const keys = owners.ofFolder(folder, rootOf(path));
    sites.push({ kind: 'mkdocs', key: `site:${path}\u0000${keys.join('\n')}`, configPath: path, owners: keys });
  }
  return sites;
}

/**
 * The Markdown files of the `docs` globs (in path order) that no site read, grouped by docs folder: the outermost
 * folder named `docs` holding the file inside its repository, else the file's own folder. Each
 * group is read as a site without mkdocs.yml (path order; its `index.md` or `README.md` first).
 */
export function looseDocsSites(
  docsFiles: readonly string[],
  claimed: ClaimedSites,
  owners: PlaceOwners,
  rootOf: (path: string) => string,
): StandaloneSite[] {
  const groups = new Map<string, string[]>();
  for (const path of docsFiles) {
    if (insideAny(path, claimed.docsDirs)) continue;
    const dir = docsFolderOf(path, rootOf(path));
    const list = groups.get(dir);
    if (list) list.push(path);
    else groups.set(dir, [path]);
  }
  const sites: StandaloneSite[] = [];
  for (const [docsDir, files] of groups) {
    const keys = owners.ofFolder(docsDir, rootOf(files[0]));
    sites.push({
      kind: 'docs',
      key: `docs:${docsDir}\u0000${files.join('\n')}\u0000${keys.join('\n')}`,
      docsDir,
      files,
      owners: keys,
    });
  }
  return sites;
}

/**
 * True when a folder of `dirs` holds `path`: its folders are looked up one by one, so the cost is
 * the path's depth, not the number of sites (thousands in a large workspace).
 */
function insideAny(path: string, dirs: ReadonlySet<string>): boolean {
  if (dirs.size === 0) return false;
  if (dirs.has('')) return true;
  for (let end = path.indexOf('/'); end > 0; end = path.indexOf('/', end + 1)) {
    if (dirs.has(path.slice(0, end))) return true;
  }
  return false;
}

/** The outermost folder named `docs` holding `path` below its repository root, else its own folder. */
function docsFolderOf(path: string, root: string): string {
  const inRepo = root === '' ? path : path.slice(root.length + 1);
  const segments = inRepo.split('/');
  const at = segments.indexOf('docs');
  if (at < 0 || at === segments.length - 1) return dirName(path);
  const inside = segments.slice(0, at + 1).join('/');
  return root === '' ? inside : `${root}/${inside}`;
}

/** One entity whose `url:` TechDocs ref leads to a repository the workspace does not hold. */
export interface ElsewhereRef {
  entityRef: string;
  catalogPath: string;
  line: number;
  url: string;
  target: Extract<UrlTarget, { kind: 'elsewhere' }>;
}

/** At most this many entity refs are named in one grouped problem; the rest are counted. */
const NAMED_IN_GROUP = 3;

/**
 * One `techdocs.url-ref` warning per repository the refs lead to, at its first entity's
 * annotation, naming a few entities and counting the rest; the others are listed as related
 * places, so an editor still shows each annotation.
 */
export function elsewhereProblems(refs: readonly ElsewhereRef[]): Problem[] {
  const byRepository = new Map<string, ElsewhereRef[]>();
  for (const ref of refs) {
    const key = `${ref.target.outsideServed ? 'outside:' : ''}${ref.target.repository}`;
    const list = byRepository.get(key);
    if (list) list.push(ref);
    else byRepository.set(key, [ref]);
  }
  const problems: Problem[] = [];
  for (const list of byRepository.values()) {
    const [first] = list;
    const named = list
      .slice(0, NAMED_IN_GROUP)
      .map((r) => r.entityRef)
      .join(', ');
    const more = list.length > NAMED_IN_GROUP ? ` and ${list.length - NAMED_IN_GROUP} more` : '';
    const whose = list.length === 1 ? `TechDocs of ${named}` : `TechDocs of ${list.length} entities (${named}${more})`;
    const where = first.target.outsideServed
      ? `live in a part of this repository that is not served ('${first.url}'); serve the repository's top folder to read them`
      : `live in ${describeRepository(first.target.repository)} ('${first.url}'), which the workspace does not hold; they are not fetched (add a checkout of it as a workspace folder to read them)`;
    problems.push({
      path: first.catalogPath,
      line: first.line,
      severity: 'warning',
      code: 'techdocs.url-ref',
      message: `${whose} ${where}.`,
      ...(list.length > 1
        ? {
            related: list
              .slice(1)
              .map((r) => ({ path: r.catalogPath, line: r.line, message: `${TECHDOCS_ANNOTATION} of ${r.entityRef}` })),
          }
        : {}),
    });
  }
  return problems;
}

function describeRepository(repository: string): string {
  return /^[a-z0-9.-]+\//.test(repository) && !repository.includes('://')
    ? `the repository ${repository}`
    : `'${repository}'`;
}

/** The mkdocs.yml files and docs_dir folders the sites read, so no other site reads them again. */
export function claimedBy(results: readonly TechDocsResult[]): ClaimedSites {
  const claimed: ClaimedSites = { configs: new Set(), docsDirs: new Set() };
  for (const result of results) {
    if (result.configPath) claimed.configs.add(result.configPath);
    if (result.docsDir !== undefined && result.docs.length > 0) claimed.docsDirs.add(result.docsDir);
  }
  return claimed;
}

/** What a site claims (its mkdocs.yml and its docs folder when it read any), as one string. */
function claimKey(result: TechDocsResult): string {
  return `${result.configPath ?? ''}\u0000${result.docs.length > 0 ? (result.docsDir ?? '') : ''}`;
}

/**
 * The last value computed, kept while its inputs are the very same objects, the sites read before
 * it claim the same (compared result by result: the same object, which a site keeps while its
 * files are unchanged, or one claiming the same) and its other keys are the same strings.
 */
export class LastPlan<V> {
  private inputs: readonly unknown[] = [];
  private claims: readonly TechDocsResult[] = [];
  private keys: readonly string[] = [];
  private value: V | undefined;

  get(inputs: readonly unknown[], claims: readonly TechDocsResult[], keys: readonly string[], compute: () => V): V {
    if (
      this.value !== undefined &&
      sameItems(inputs, this.inputs) &&
      sameItems(keys, this.keys) &&
      sameClaims(claims, this.claims)
    )
      return this.value;
    this.inputs = inputs;
    this.claims = claims;
    this.keys = keys;
    this.value = compute();
    return this.value;
  }
}

function sameItems(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function sameClaims(a: readonly TechDocsResult[], b: readonly TechDocsResult[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i] && claimKey(a[i]) !== claimKey(b[i])) return false;
  return true;
}
