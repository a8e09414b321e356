/**
 * Which files the engine reads (docs/ARCHITECTURE.md, "What is read"), as globs the user can override per field.
 *
 * Role globs are matched against a file's path relative to its repository root (the innermost
 * root discovery found: a git work tree, a workspace folder, or an exported repository), so
 * `overview.md` means "at a repository root" and `.github/copilot-instructions.md` is found in
 * every repository of a multi-repo folder. Ignore globs are matched against the path relative to
 * the workspace folder. Matching uses globMatch.ts (picomatch's syntax, in time linear in the
 * path whatever the glob: globs may come from the workspace) with `dot: true` everywhere (so
 * `.context/**` reaches dot files and `**` walks through dot folders such as `.github`); only
 * `overview` is case-insensitive.
 */
import { MAX_SOURCE_GLOB_INSTRUCTIONS } from './globBudget';
import { compileGlobs, globSize, isPlainPath } from './globMatch';

export interface SourceGlobs {
  /** Backstage catalog files. Default `**\/catalog-info.{yaml,yml}`. */
  catalog: readonly string[];
  /**
   * Overviews, any case: a file describing the folder it sits in. At a repository root it is the
   * repository's overview (attached to every entity declared in the repository); elsewhere, the
   * overview of the package whose catalog file is in that folder or the nearest one above it.
   * Where a folder holds both, `overview.md` wins over `README.md`. Default `overview.md` at a
   * repository root and `README.md` at any depth.
   */
  overview: readonly string[];
  /** Epic specs. Default `**\/epics/**\/*.md` and `**\/*.epic.md`. */
  epics: readonly string[];
  /** The rules-and-instructions library. Default `.context/**` in any folder. */
  library: readonly string[];
  /** `AGENTS.md` at any depth. */
  agentsMd: readonly string[];
  /** Copilot's repository instructions. Default `.github/copilot-instructions.md`. */
  copilotInstructions: readonly string[];
  /** Copilot's path-specific instructions. Default `.github/instructions/*.instructions.md`. */
  instructionFiles: readonly string[];
  /** `CLAUDE.md` at any depth. */
  claudeMd: readonly string[];
  /** Cursor rules. Default `.cursor/rules/*.mdc`. */
  cursorRules: readonly string[];
  /** Windsurf rules. Default `.windsurf/rules/**\/*.md` (in any folder, subfolders included). */
  windsurfRules: readonly string[];
  /**
   * TechDocs site configuration. Every match is a documentation site (its `docs_dir`, in `nav`
   * order), whether or not an entity's `backstage.io/techdocs-ref` points at it. Default
   * `**\/mkdocs.yml` and `**\/mkdocs.yaml`.
   */
  techdocs: readonly string[];
  /**
   * Documentation, by content: every Markdown, MDX, reStructuredText and AsciiDoc file that no
   * site (`mkdocs.yml`) and no other source (an overview, the library, an epic) reads, wherever it
   * sits; vendored, generated and template files are left out by discovery (docFiles.ts). Each is
   * a page of the docs of the folder named `docs` holding it, else of its own folder. Default
   * `**\/*.{md,markdown,mdx,rst,adoc}`; narrow it (`['docs/**']`) to read less.
   */
  docs: readonly string[];
  /**
   * Site navigation: the files that give a documentation site's pages their order and menu
   * titles, read without running anything (sources/siteNav): Docusaurus sidebars and
   * `_category_` files, mdBook and GitBook `SUMMARY.md` (with `book.toml`, `.gitbook.yaml`),
   * Antora's `antora.yml` and navigation files (`modules/<module>/*.adoc`), awesome-pages `.pages`
   * and awesome-nav `.nav.yml`. They order and name pages, never decide which are read. Default:
   * those names at any depth.
   */
  siteNav: readonly string[];
  /**
   * Markdown kept so parsers can follow it without a role of its own: TechDocs pages under a
   * `docs_dir` and epics marked only by front matter (`kind: epic`). Default `**\/*.md`.
   */
  markdown: readonly string[];
  /**
   * YAML kept so a catalog `Location` entity can name it as a target. Default `**\/*.{yaml,yml}`.
   * Set to `[]` to read only `catalog` files.
   */
  catalogTargets: readonly string[];
  /**
   * Files a catalog placeholder (`$text`, `$json`, `$openapi`...) may name besides YAML and
   * Markdown, which the globs above already keep: API definitions and schemas. Default
   * `**\/*.{json,proto,graphql,gql,avsc,avdl,thrift,wsdl,raml}`; read only when named.
   */
  placeholderTargets: readonly string[];
  /**
   * The last CI run's verdict for a repository (the contract's run-health bonus), at the
   * repository root. Default `.wsctx/run-health.json`; the format is in sources/runHealth.ts.
   */
  runHealth: readonly string[];
  /**
   * Extra paths never read, on top of `.gitignore`, `node_modules` and `.git` (always skipped).
   * Matched against the folder-relative path of files and of directories (a matching directory
   * is not entered: `**\/fixtures/**` skips the whole folder). Default: none.
   */
  ignore: readonly string[];
}

/** A role a file plays: every `SourceGlobs` field but `ignore`. */
export type SourceRole = Exclude<keyof SourceGlobs, 'ignore'>;

/** The defaults of docs/ARCHITECTURE.md, "What is read", plus the conventions agents already use. */
export const DEFAULT_SOURCE_GLOBS: Readonly<SourceGlobs> = Object.freeze({
  catalog: ['**/catalog-info.{yaml,yml}'],
  overview: ['overview.md', '**/README.md'],
  epics: ['**/epics/**/*.md', '**/*.epic.md'],
  library: ['**/.context/**'],
  agentsMd: ['**/AGENTS.md'],
  copilotInstructions: ['**/.github/copilot-instructions.md'],
  instructionFiles: ['**/.github/instructions/**/*.instructions.md'],
  claudeMd: ['**/CLAUDE.md'],
  cursorRules: ['**/.cursor/rules/**/*.mdc'],
  windsurfRules: ['**/.windsurf/rules/**/*.md'],
  techdocs: ['**/mkdocs.yml', '**/mkdocs.yaml'],
  docs: ['**/*.{md,markdown,mdx,rst,adoc}'],
  siteNav: [
    '**/sidebars.{js,cjs,mjs,ts,cts,mts,json}',
    '**/_category_.{json,yml,yaml}',
    '**/SUMMARY.md',
    '**/book.toml',
    '**/.gitbook.{yaml,yml}',
    '**/antora.{yml,yaml}',
    '**/modules/*/*.adoc',
    '**/.pages',
    '**/.pages.{yml,yaml}',
    '**/.nav.{yml,yaml}',
  ],
  markdown: ['**/*.md'],
  catalogTargets: ['**/*.{yaml,yml}'],
  placeholderTargets: ['**/*.{json,proto,graphql,gql,avsc,avdl,thrift,wsdl,raml}'],
  runHealth: ['.wsctx/run-health.json'],
  ignore: [],
});

/** Roles in a fixed order: `roles()` lists them in this order. */
export const SOURCE_ROLES: readonly SourceRole[] = [
  'catalog',
  'overview',
  'epics',
  'library',
  'agentsMd',
  'copilotInstructions',
  'instructionFiles',
  'claudeMd',
  'cursorRules',
  'windsurfRules',
  'techdocs',
  'docs',
  'siteNav',
  'markdown',
  'catalogTargets',
  'placeholderTargets',
  'runHealth',
];

/** Roles matched without regard to case. */
const CASE_INSENSITIVE_ROLES: ReadonlySet<SourceRole> = new Set<SourceRole>(['overview']);

/** Directory names never entered, whatever the globs say. */
export const ALWAYS_SKIPPED_DIRS: ReadonlySet<string> = new Set(['node_modules', '.git']);

/** The defaults with each given field replaced (fields left out or undefined keep the default). */
export function resolveSourceGlobs(overrides: Partial<SourceGlobs> = {}): SourceGlobs {
  const globs = { ...DEFAULT_SOURCE_GLOBS };
  for (const key of Object.keys(overrides) as (keyof SourceGlobs)[]) {
    const value = overrides[key];
    if (value !== undefined) globs[key] = [...value];
  }
  return globs;
}

/** A source glob left out because the source globs together passed their budget. */
export interface RefusedSourceGlob {
  key: keyof SourceGlobs;
  glob: string;
  reason: string;
}

/** Compiled matchers for one `SourceGlobs`. */
export interface SourceMatcher {
  /** The globs matched: the given ones, less those in {@link refused}. */
  readonly globs: SourceGlobs;
  /** Globs past {@link MAX_SOURCE_GLOB_INSTRUCTIONS} (in role order, then `ignore`), not matched. */
  readonly refused: readonly RefusedSourceGlob[];
  /** Roles of a file given its repository-relative path, in `SOURCE_ROLES` order. */
  roles(repoRelPath: string): SourceRole[];
  /** True when a file matches at least one role. */
  isCandidate(repoRelPath: string): boolean;
  /** True when a folder-relative path (file or directory) matches an extra ignore glob. */
  isIgnored(folderRelPath: string): boolean;
}

type Matcher = (path: string) => boolean;

function compile(patterns: readonly string[], nocase: boolean): Matcher {
  return compileGlobs(patterns, { dot: true, nocase });
}

/**
 * One automaton for "matches any of these globs": a walk tests every file name, and one combined
 * test costs a fraction of a dozen separate matcher calls.
 */
function combine(patterns: readonly string[], nocase: boolean): Matcher {
  return compileGlobs(patterns, { dot: true, nocase });
}

/** What one source glob costs its automaton: nothing for a plain path (matched by string). */
function sourceGlobSize(key: keyof SourceGlobs, glob: string): ReturnType<typeof globSize> {
  const options = { dot: true, nocase: key !== 'ignore' && CASE_INSENSITIVE_ROLES.has(key) };
  return isPlainPath(glob, options) ? { ok: true, instructions: 0 } : globSize(glob, options);
}

/**
 * The globs with those past {@link MAX_SOURCE_GLOB_INSTRUCTIONS} left out, each costing its
 * automaton's size (a glob past its own cap costs nothing: it matches nothing anyway). The
 * default globs are counted first (485 instructions: they always fit), so globs set for one role
 * cannot crowd out another role's defaults; then the others, every role's in role order, then
 * `ignore`'s.
 */
export function withinSourceBudget(globs: SourceGlobs): { globs: SourceGlobs; refused: RefusedSourceGlob[] } {
  const kept = { ...globs };
  const refused: RefusedSourceGlob[] = [];
  const keys = [...SOURCE_ROLES, 'ignore'] as (keyof SourceGlobs)[];
  const isDefault = (key: keyof SourceGlobs, glob: string) => DEFAULT_SOURCE_GLOBS[key].includes(glob);
  const sizeOf = (key: keyof SourceGlobs, glob: string) => sourceGlobSize(key, glob);
  let spent = 0;
  for (const key of keys)
    for (const glob of globs[key]) {
      const size = sizeOf(key, glob);
      if (size.ok && isDefault(key, glob)) spent += size.instructions;
    }
  for (const key of keys) {
    kept[key] = globs[key].filter((glob) => {
      if (isDefault(key, glob)) return true;
      const size = sizeOf(key, glob);
      if (!size.ok) return true;
      if (spent + size.instructions > MAX_SOURCE_GLOB_INSTRUCTIONS) {
        refused.push({
          key,
          glob,
          reason: `the source globs may compile to ${MAX_SOURCE_GLOB_INSTRUCTIONS.toLocaleString('en-US')} automaton instructions in all, and ${spent.toLocaleString('en-US')} are taken (this one needs ${size.instructions.toLocaleString('en-US')})`,
        });
        return false;
      }
      spent += size.instructions;
      return true;
    });
  }
  return { globs: kept, refused };
}

/** What the source globs compile to together, in automaton instructions (globs past their own cap count nothing). */
export function sourceGlobInstructions(globs: SourceGlobs): number {
  let total = 0;
  for (const key of [...SOURCE_ROLES, 'ignore'] as (keyof SourceGlobs)[]) {
    for (const glob of globs[key]) {
      const size = sourceGlobSize(key, glob);
      if (size.ok) total += size.instructions;
    }
  }
  return total;
}

export function compileSourceGlobs(overrides: Partial<SourceGlobs> = {}): SourceMatcher {
  const { globs, refused } = withinSourceBudget(resolveSourceGlobs(overrides));
  const byRole = SOURCE_ROLES.map((role) => [role, compile(globs[role], CASE_INSENSITIVE_ROLES.has(role))] as const);
  const patternsOf = (nocase: boolean): string[] =>
    SOURCE_ROLES.filter((role) => CASE_INSENSITIVE_ROLES.has(role) === nocase).flatMap((role) => globs[role]);
  const anyExact = combine(patternsOf(false), false);
  const anyNocase = combine(patternsOf(true), true);
  const isCandidate = (repoRelPath: string): boolean => anyExact(repoRelPath) || anyNocase(repoRelPath);
  const ignored = compile(globs.ignore, false);
  return {
    globs,
    refused,
    roles: (repoRelPath) =>
      isCandidate(repoRelPath) ? byRole.filter(([, match]) => match(repoRelPath)).map(([role]) => role) : [],
    isCandidate,
    isIgnored: (folderRelPath) => folderRelPath !== '' && ignored(folderRelPath),
  };
}

/** True when any segment of a posix path is a directory that is always skipped. */
export function inSkippedDir(posixPath: string): boolean {
  return posixPath.split('/').some((segment) => ALWAYS_SKIPPED_DIRS.has(segment));
}
