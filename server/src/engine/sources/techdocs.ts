/**
 * Documentation sites (`catalog_doc`): a folder holding `mkdocs.yml`, whose `docs_dir` (default
 * `docs`) holds the Markdown and whose `nav` gives the reading order.
 *
 * A site is found three ways (indexing/docSites.ts decides which apply):
 * - an entity's `backstage.io/techdocs-ref: dir:<path>` names its folder, relative to the
 *   entity's catalog file (`readTechDocs`); `url:<address>` does too when the address names a
 *   repository the workspace holds (techdocsUrl.ts), else it is reported and never fetched;
 * - any `mkdocs.yml` is a site of its own, attached to the entities that own its folder
 *   (`readDocsSite`);
 * - Markdown under a `docs` folder that no site claims is read the same way, in path order.
 *
 * Order of the documents returned: the overview (docs' index page: `index.md`, else `README.md`
 * at the top of docs_dir, else the first nav entry), then the pages in nav order, then every other
 * Markdown file under docs_dir in path order.
 */
import { isMap, isScalar, isSeq, type Node } from 'yaml';
import { parseYamlMap } from '../chunking/yamlMap';
import type { Doc, EntityKey, Problem } from '../model';
import { filesUnder, type FileSource } from '../workspace/fileSource';
import { parseDocumentText, textFormatOf } from '../chunking/documentFormats';
import { buildDoc } from './docBuilder';
import { readSiteNav, type NavEntry, type SitePage } from './siteNav/siteNav';
import { FieldReader } from './fields';
import { navEntryPages } from './navEntries';
import { dirName, extName, isInside, joinPath } from './paths';
import type { IsNavFile } from './siteNav/navTypes';
import type { UrlTarget } from './techdocsUrl';

export interface TechDocsInput {
  files: FileSource;
  /** Key of the entity carrying the annotation; every doc is attached to it. */
  entityKey: EntityKey;
  /** Workspace-relative path of the catalog file declaring the entity. */
  catalogPath: string;
  /** The annotation's value as written, e.g. `dir:.` or `url:https://...`. */
  annotation: string;
  /** Line of the annotation in the catalog file, for problems. Default 1. */
  annotationLine?: number;
  /** Workspace folder name. Default ''. */
  folder?: string;
  /**
   * The served folder's workspace-relative path ('' when one folder is served, its name when
   * several are): a `dir:` ref leading out of it, into another served folder, is not followed.
   * Default '' (the whole workspace).
   */
  folderRoot?: string;
  /** How a `url:` ref is resolved (techdocsUrl.ts). Default: every address is elsewhere. */
  resolveUrl?: (url: string) => UrlTarget;
  /**
   * False: a `url:` ref to elsewhere gives no problem here, only `elsewhere` in the result, for
   * the caller to report once per repository. Default true.
   */
  reportElsewhere?: boolean;
  /** Which files are site navigation files (siteNav/navTypes.ts). Default: any the source holds. */
  isNavFile?: IsNavFile;
}

export interface TechDocsResult {
  /** Overview first (when there is one), then pages in reading order. */
  docs: Doc[];
  problems: Problem[];
  /** `site_name` from mkdocs.yml. */
  siteName?: string;
  /** Workspace-relative folder the Markdown was read from. */
  docsDir?: string;
  /** The site's mkdocs.yml, when it has one. */
  configPath?: string;
  /** The target of a `url:` ref, as written. */
  url?: string;
  /** Where a `url:` ref leads when it is not on disk. */
  elsewhere?: Extract<UrlTarget, { kind: 'elsewhere' }>;
}

/** A site no entity's annotation points at (an mkdocs.yml, or a docs folder without one). */
export interface DocsSiteInput {
  files: FileSource;
  /** The site's `mkdocs.yml`; absent for a docs folder read without one. */
  configPath?: string;
  /** Without `configPath`: the folder whose Markdown is the site. */
  docsDir?: string;
  /** Without `configPath`: exactly these Markdown files (default: every one under `docsDir`). */
  markdownFiles?: readonly string[];
  /** Entities the pages are attached to (the owners of the site's folder; may be empty). */
  entityKeys: readonly EntityKey[];
  /** Workspace folder name. Default ''. */
  folder?: string;
  /** Which files are site navigation files (siteNav/navTypes.ts). Default: any the source holds. */
  isNavFile?: IsNavFile;
}

/** A page named in `nav`, flattened in reading order. */
export interface NavPage {
  /** Path relative to docs_dir, anchor removed. */
  file: string;
  /** Title given in nav, when any. */
  title?: string;
  /** Titles of the nav sections containing the page. */
  sections: string[];
  /** Line in mkdocs.yml. */
  line: number;
}

export interface MkDocsConfig {
  siteName?: string;
  /** As written, relative to mkdocs.yml. Default `docs`. */
  docsDir: string;
  nav: NavPage[];
  /** 1-based line of each top-level key. */
  keyLines: Record<string, number>;
  problems: Problem[];
}

export type TechDocsRef =
  | { type: 'dir'; target: string }
  | { type: 'url'; target: string }
  | { type: 'invalid'; value: string };

export const TECHDOCS_ANNOTATION = 'backstage.io/techdocs-ref';
const MARKDOWN_EXTENSIONS = new Set(['md', 'markdown']);

export function parseTechDocsRef(value: string): TechDocsRef {
  const match = /^\s*(dir|url)\s*:(.*)$/i.exec(value);
  if (!match || match[2].trim() === '') return { type: 'invalid', value };
  return { type: match[1].toLowerCase() as 'dir' | 'url', target: match[2].trim() };
}

/** Reads `mkdocs.yml`: `site_name`, `docs_dir` and the flattened `nav`. Never throws. */
export function parseMkDocs(path: string, text: string): MkDocsConfig {
  const yaml = parseYamlMap(text, { path, codePrefix: 'techdocs', what: 'mkdocs.yml' });
  const problems = [...yaml.problems];
  const fields = new FieldReader(yaml.data, {
    path,
    keyLines: yaml.keyLines,
    code: 'techdocs.invalid-field',
    label: 'mkdocs.yml field',
    problems,
  });
  const config: MkDocsConfig = {
    docsDir: fields.string('docs_dir') ?? 'docs',
    nav: [],
    keyLines: yaml.keyLines,
    problems,
  };
  const siteName = fields.string('site_name');
  if (siteName) config.siteName = siteName;

  const contents = yaml.ok ? yaml.document.contents : null;
  const navNode = isMap(contents) ? contents.get('nav', true) : undefined;
  if (navNode === undefined || navNode === null) return config;
  if (!isSeq(navNode)) {
    fields.report('nav', 'must be a list of pages and sections');
    return config;
  }
  const visit = (items: readonly unknown[], sections: string[]) => {
    for (const item of items) {
      const line = yaml.lineAt((item as Node).range?.[0] ?? 0);
      if (isScalar(item) && typeof item.value === 'string') {
        addPage(item.value, undefined, sections, line);
      } else if (isMap(item) && item.items.length === 1 && isScalar(item.items[0].key)) {
        const title = String(item.items[0].key.value);
        const value = item.items[0].value;
        if (isScalar(value) && typeof value.value === 'string') addPage(value.value, title, sections, line);
        else if (isSeq(value)) visit(value.items, [...sections, title]);
        else navProblem(line, `nav entry '${title}' must name a page or hold a list of entries`);
      } else {
        navProblem(line, 'nav entries must be a page path or a single `Title: page` pair');
      }
    }
  };
  const addPage = (target: string, title: string | undefined, sections: string[], line: number) => {
    // External links in nav are navigation only, not pages of these docs.
    if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('/')) return;
    const file = target.replace(/#.*$/, '').trim();
    if (file === '') return;
    config.nav.push(title === undefined ? { file, sections, line } : { file, title, sections, line });
  };
  const navProblem = (line: number, message: string) =>
    problems.push({ path, line, severity: 'warning', code: 'techdocs.invalid-nav', message: `mkdocs.yml ${message}.` });
  visit(navNode.items, []);
  return config;
}

/** Reads an entity's TechDocs from the workspace. Never throws. */
export async function readTechDocs(input: TechDocsInput): Promise<TechDocsResult> {
  const problems: Problem[] = [];
  const result: TechDocsResult = { docs: [], problems };
  const located = await locate(input, result);
  if (!located) return result;
  await readPages(input.files, located, [input.entityKey], input.folder, result, input.isNavFile);
  return result;
}

/** Reads a site no entity points at. Never throws. */
export async function readDocsSite(input: DocsSiteInput): Promise<TechDocsResult> {
  const result: TechDocsResult = { docs: [], problems: [] };
  let located: Located | null;
  if (input.configPath) {
    const text = await input.files.readText(input.configPath);
    if (text === null) return result;
    located = siteOf(
      input.files,
      dirName(input.configPath),
      input.configPath,
      text,
      result,
      `the docs site '${input.configPath}'`,
    );
  } else {
    const docsDir = input.docsDir ?? '';
    const markdownFiles = input.markdownFiles ? [...input.markdownFiles].sort() : markdownUnder(input.files, docsDir);
    located = markdownFiles.length > 0 ? { config: emptyConfig(), docsDir, markdownFiles } : null;
    if (located) result.docsDir = docsDir;
  }
  if (!located) return result;
  await readPages(input.files, located, input.entityKeys, input.folder, result, input.isNavFile);
  return result;
}

/**
 * Reads a located site's pages into `result` in reading order: each page read and parsed in its
 * format (chunking/documentFormats.ts), then ordered by mkdocs.yml's `nav` and the site's own
 * navigation (siteNav/siteNav.ts). Files the site reads as navigation (a SUMMARY.md) are not pages.
 */
async function readPages(
  files: FileSource,
  located: Located,
  entityKeys: readonly EntityKey[],
  folder: string | undefined,
  result: TechDocsResult,
  isNavFile?: IsNavFile,
): Promise<void> {
  const { config, configPath, docsDir, markdownFiles } = located;
  const pages: SitePage[] = [];
  for (const path of markdownFiles) {
    const text = await files.readText(path);
    if (text !== null) pages.push({ path, text, doc: parseDocumentText(path, text) });
  }
  const nav = await readSiteNav(files, docsDir, pages, isNavFile);
  for (const problem of nav.problems) result.problems.push(problem);
  const byPath = new Map(pages.map((page) => [page.path, page]));
  const readable = pages.filter((page) => !nav.navFiles.has(page.path)).map((page) => page.path);
  for (const entry of readingOrder(
    docsDir,
    readable,
    config,
    configPath ?? docsDir,
    result.problems,
    nav.order,
    nav.startPage,
  )) {
    const { text, doc } = byPath.get(entry.path)!;
    // The page's own title (front matter or a top-level heading) describes its content; a nav
    // label ("Home", "Overview") only names a menu entry, so it titles pages that have none of
    // their own.
    const ownTitle = typeof doc.frontMatter.data.title === 'string' || doc.sections.some((s) => s.level === 1);
    const built = buildDoc({
      path: entry.path,
      text,
      sourceKind: 'catalog_doc',
      format: textFormatOf(entry.path) ?? 'markdown',
      folder,
      entityRefs: entityKeys,
      docsRole: entry.role,
      title: ownTitle ? undefined : entry.title,
      markdown: doc,
    });
    result.docs.push(built.doc);
    for (const problem of doc.problems) result.problems.push(problem);
  }
}

function emptyConfig(): MkDocsConfig {
  return { docsDir: 'docs', nav: [], keyLines: {}, problems: [] };
}

interface Located {
  config: MkDocsConfig;
  configPath?: string;
  docsDir: string;
  markdownFiles: string[];
}

/** Follows the annotation to mkdocs.yml and docs_dir; null (with problems) when there are no docs. */
async function locate(input: TechDocsInput, result: TechDocsResult): Promise<Located | null> {
  const { files, entityKey } = input;
  const report = (severity: Problem['severity'], code: string, message: string) => {
    result.problems.push({ path: input.catalogPath, line: input.annotationLine ?? 1, severity, code, message });
    return null;
  };

  const ref = parseTechDocsRef(input.annotation);
  if (ref.type === 'invalid') {
    const expected = `'dir:<path>' or 'url:<address>' (got '${input.annotation}')`;
    return report('warning', 'techdocs.invalid-ref', `Annotation '${TECHDOCS_ANNOTATION}' must be ${expected}.`);
  }
  let dir: string | null;
  if (ref.type === 'url') {
    result.url = ref.target;
    const target: UrlTarget = input.resolveUrl?.(ref.target) ?? { kind: 'elsewhere', repository: ref.target };
    if (target.kind === 'elsewhere') {
      result.elsewhere = target;
      if (input.reportElsewhere === false) return null;
      const where = target.outsideServed ? 'in a part of this repository that is not served' : 'outside the workspace';
      return report(
        'warning',
        'techdocs.url-ref',
        `TechDocs of ${entityKey} live at '${ref.target}', ${where}; they are not fetched.`,
      );
    }
    dir = target.dir;
  } else {
    dir = joinPath(dirName(input.catalogPath), ref.target);
    // A served folder's refs stay its own: another folder's docs are that folder's entities'.
    const root = input.folderRoot ?? '';
    if (dir !== null && dir !== root && !isInside(dir, root)) {
      const message = `Annotation '${TECHDOCS_ANNOTATION}' of ${entityKey} leads out of its served folder ('${ref.target}' is '${dir}'); a folder's refs stay inside it, so it is not read.`;
      return report('warning', 'techdocs.outside-folder', message);
    }
  }
  if (dir === null) {
    const message = `Annotation '${TECHDOCS_ANNOTATION}' points outside the workspace ('${ref.target}').`;
    return report('warning', 'techdocs.invalid-ref', message);
  }
  const shown = dir === '' ? 'the workspace root' : `'${dir}'`;
  // Listed by directory (fileSource.ts): one site's files, not the whole workspace per site.
  if (dir !== '' && filesUnder(files, dir).length === 0) {
    return report(
      'warning',
      'techdocs.missing-dir',
      `TechDocs folder ${shown} of ${entityKey} does not exist or is empty.`,
    );
  }

  const configPath = ['mkdocs.yml', 'mkdocs.yaml']
    .map((name) => joinPath(dir, name))
    .find((path): path is string => path !== null && files.has(path));
  const configText = configPath ? await files.readText(configPath) : null;
  if (configPath && configText !== null) return siteOf(files, dir, configPath, configText, result, entityKey);
  const docsDir = joinPath(dir, 'docs') ?? dir;
  const markdownFiles = markdownUnder(files, docsDir);
  if (markdownFiles.length === 0) {
    return report(
      'warning',
      'techdocs.missing-mkdocs',
      `No mkdocs.yml in ${shown} and no Markdown in '${docsDir}' for ${entityKey}.`,
    );
  }
  report(
    'info',
    'techdocs.missing-mkdocs',
    `No mkdocs.yml in ${shown}; reading the Markdown of '${docsDir}' in path order.`,
  );
  result.docsDir = docsDir;
  return { config: emptyConfig(), docsDir, markdownFiles };
}

/**
 * A site from its mkdocs.yml: its docs_dir's Markdown, in path order (readingOrder applies nav).
 * Null, with a problem, when docs_dir leaves the workspace or holds no Markdown. `subject` names
 * whose docs these are in messages.
 */
function siteOf(
  files: FileSource,
  dir: string,
  configPath: string,
  configText: string,
  result: TechDocsResult,
  subject: string,
): Located | null {
  const config = parseMkDocs(configPath, configText);
  result.problems.push(...config.problems);
  if (config.siteName) result.siteName = config.siteName;
  const docsDirLine = config.keyLines.docs_dir ?? 1;
  const docsDir = joinPath(dir, config.docsDir);
  if (docsDir === null) {
    const message = `mkdocs.yml field 'docs_dir' points outside the workspace ('${config.docsDir}').`;
    result.problems.push(configProblem(configPath, docsDirLine, 'techdocs.invalid-field', message));
    return null;
  }
  const markdownFiles = markdownUnder(files, docsDir);
  if (markdownFiles.length === 0) {
    const message = `docs_dir '${config.docsDir}' of ${subject} holds no Markdown files.`;
    result.problems.push(configProblem(configPath, docsDirLine, 'techdocs.missing-dir', message));
    return null;
  }
  result.docsDir = docsDir;
  result.configPath = configPath;
  return { config, configPath, docsDir, markdownFiles };
}

/** The Markdown files under a folder, in path order. */
function markdownUnder(files: FileSource, dir: string): string[] {
  return filesUnder(files, dir)
    .filter((path) => MARKDOWN_EXTENSIONS.has(extName(path)))
    .sort();
}

function configProblem(path: string, line: number, code: string, message: string): Problem {
  return { path, line, severity: 'warning', code, message };
}

interface OrderedPage {
  path: string;
  role: 'overview' | 'page';
  title?: string;
}

/**
 * The overview (the docs' index page: `index.*`, `README.md` or `_index.md` at the top of
 * docs_dir, else the first mkdocs nav page, else the site's start page by its navigation),
 * then mkdocs nav pages, then the site's order (`siteOrder`, every page), then any page left.
 * A nav entry that is a pattern (`tutorials/*`, `reference/`, literate-nav style) places the
 * pages it matches, in path order.
 */
function readingOrder(
  docsDir: string,
  markdownFiles: readonly string[],
  config: MkDocsConfig,
  configPath: string,
  problems: Problem[],
  siteOrder: readonly NavEntry[] = [],
  startPage?: string,
): OrderedPage[] {
  const existing = new Set(markdownFiles);
  const nav: { path: string; title?: string }[] = [];
  for (const page of config.nav) {
    const path = joinPath(docsDir, page.file);
    if (path === null || !existing.has(path)) {
      // A wildcard, a folder or a rest marker stands for the pages it matches (navEntries.ts).
      const matched = navEntryPages(page.file, docsDir, markdownFiles);
      if (matched) {
        for (const each of matched) nav.push({ path: each });
        continue;
      }
      problems.push({
        path: configPath,
        line: page.line,
        severity: 'warning',
        code: 'techdocs.nav-missing-page',
        message: `nav names '${page.file}', which is not a Markdown file in '${docsDir}'.`,
      });
      continue;
    }
    nav.push(page.title === undefined ? { path } : { path, title: page.title });
  }
  const topLevel = (name: string) =>
    markdownFiles.find((path) => path.toLowerCase() === `${docsDir}/${name}`.replace(/^\//, '').toLowerCase());
  const overviewPath =
    OVERVIEW_NAMES.map(topLevel).find((path) => path !== undefined) ??
    nav[0]?.path ??
    (startPage !== undefined && existing.has(startPage) ? startPage : undefined);

  const ordered: OrderedPage[] = [];
  const placed = new Set<string>();
  const place = (path: string, role: OrderedPage['role'], title?: string) => {
    if (placed.has(path)) return;
    placed.add(path);
    ordered.push(title === undefined ? { path, role } : { path, role, title });
  };
  if (overviewPath) {
    const titled =
      nav.find((page) => page.path === overviewPath) ?? siteOrder.find((page) => page.path === overviewPath);
    place(overviewPath, 'overview', titled?.title);
  }
  for (const page of nav) place(page.path, 'page', page.title);
  for (const page of siteOrder) if (existing.has(page.path)) place(page.path, 'page', page.title);
  for (const path of markdownFiles) place(path, 'page');
  return ordered;
}

/** Names of a docs folder's index page, in the order they are preferred. */
const OVERVIEW_NAMES = ['index.md', 'readme.md', 'index.mdx', 'index.rst', 'index.adoc', '_index.md'];
