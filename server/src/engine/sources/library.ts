/**
 * The rules-and-instructions library (docs/ARCHITECTURE.md, "What is read"): `.context/**` pages with their front
 * matter, `folder.yaml` folder descriptions, `.context/packs/*.yaml` packs, and the instruction
 * files agents keep (AGENTS.md, CLAUDE.md, Copilot and Cursor files; see instructionFormats.ts).
 *
 * Every field is optional. A field of the wrong type is reported (naming the field) and ignored;
 * the rest of the page is kept.
 */
import { scanMarkdown, splitLines } from '../chunking/markdownBlocks';
import { parseMarkdown } from '../chunking/markdownSections';
import { parseYamlMap } from '../chunking/yamlMap';
import type { Doc, LibraryProps, Problem } from '../model';
import type { FileSource } from '../workspace/fileSource';
import { buildDoc } from './docBuilder';
import { FieldReader } from './fields';
import {
  classifyLibraryPath,
  type LibraryFile,
  isFolderDescriptionPath,
  isPackPath,
  libraryNamespace,
  quoteBareGlobs,
} from './instructionFormats';
import { baseName, dirName, joinPath } from './paths';

export interface LibraryPageInput {
  path: string;
  text: string;
  /** Workspace folder name. Default ''. */
  folder?: string;
  /** Checks that an attached `file:` exists; when given, a missing file is a problem. */
  exists?: (path: string) => boolean;
  /**
   * The page's library format, as the source globs' roles decided it (instructionFormats.ts
   * `libraryFileByRoles`). Default: from the path's conventions alone (`classifyLibraryPath`).
   */
  kind?: LibraryFile;
}

/** A folder's `folder.yaml`. */
export interface FolderDescription {
  /** Path of the folder.yaml itself. */
  path: string;
  /** Workspace-relative folder it describes. */
  folder: string;
  namespace: string;
  description?: string;
  goodFor: string[];
  /** `focused`: pages belong together; `catalog`: a collection of unrelated entries. */
  profile?: 'focused' | 'catalog';
}

/** A pack from `.context/packs/*.yaml`. */
export interface LibraryPack {
  path: string;
  /** `name`, else the file name without extension. */
  name: string;
  description?: string;
  goodFor: string[];
  /** Pages (titles or paths, as written) always sent when the pack applies. */
  always: string[];
  /** Pages sent when the pack applies and they match the task. */
  whenRelevant: string[];
}

export interface LibraryContents {
  /** Pages and instruction files in path order. */
  docs: Doc[];
  folders: FolderDescription[];
  packs: LibraryPack[];
  problems: Problem[];
}

const PROFILES = ['focused', 'catalog'] as const;
/** The front matter key naming the pages whose conflict and duplicate flags with this one are settled. */
export const CONFLICTS_RESOLVED_KEY = 'conflicts_resolved';
const STATUSES = ['published', 'draft'] as const;

/** Reads one library Markdown file. `doc` is null when the path is not part of the library. */
export function readLibraryPage(input: LibraryPageInput): { doc: Doc | null; problems: Problem[] } {
  const kind = input.kind ?? classifyLibraryPath(input.path);
  if (!kind) return { doc: null, problems: [] };
  const markdown = parseMarkdown(input.path, quoteBareGlobs(input.text));
  const problems = [...markdown.problems];
  const fields = new FieldReader(markdown.frontMatter.data, {
    path: input.path,
    keyLines: markdown.frontMatter.keyLines,
    code: 'library.invalid-field',
    label: 'Front matter field',
    problems,
  });

  const library: LibraryProps = {
    goodFor: fields.stringList('good_for'),
    questions: fields.stringList('questions'),
    tags: [...new Set(fields.stringList('tags', { commaSeparated: true }).map((tag) => tag.toLowerCase()))],
    alwaysInclude: fields.boolean('always_include') ?? false,
    status: fields.oneOf('status', STATUSES) ?? 'published',
    links: extractPageLinks(markdown.frontMatter.body),
    namespace: kind.namespace,
  };
  const type = fields.string('type') ?? kind.defaultType;
  if (type) library.type = type.toLowerCase();
  // Copilot and Cursor call the summary `description`.
  const summary = fields.string('summary') ?? fields.string('description');
  if (summary) library.summary = summary;
  const readWhole = fields.boolean('read_whole');
  if (readWhole !== undefined) library.readWhole = readWhole;
  const expires = fields.date('expires');
  if (expires) library.expires = expires;
  const usage = fields.string('usage');
  if (usage) library.usage = usage;
  const file = fields.string('file');
  if (file) {
    const resolved = joinPath(dirName(input.path), file);
    if (resolved === null) fields.report('file', `must be a path inside the workspace (got '${file}')`);
    else if (input.exists && !input.exists(resolved)) {
      fields.report('file', `names '${resolved}', which does not exist`);
      library.missingFile = resolved;
    } else library.file = resolved;
  }
  if (fields.has('applyTo') || fields.has('globs')) {
    library.applyTo = [
      ...fields.stringList('applyTo', { commaSeparated: true }),
      ...fields.stringList('globs', { commaSeparated: true }),
    ];
  }
  const alwaysApply = fields.boolean('alwaysApply');
  if (alwaysApply !== undefined) library.alwaysApply = alwaysApply;
  // Settled flags live in the library itself, written by its authors: the tool never writes a file.
  const resolved = fields
    .stringList(CONFLICTS_RESOLVED_KEY)
    .map((name) => name.replace(/^\[\[(.*)\]\]$/, '$1').trim())
    .filter((name) => name !== '');
  if (resolved.length > 0)
    library.conflictsResolved = { pages: resolved, line: markdown.frontMatter.keyLines[CONFLICTS_RESOLVED_KEY] ?? 1 };

  const built = buildDoc({
    path: input.path,
    text: input.text,
    sourceKind: 'library',
    format: kind.format,
    folder: input.folder,
    library,
    markdown,
  });
  return { doc: built.doc, problems };
}

/** Reads a `folder.yaml`: `description`, `good_for`, `profile`. */
export function parseFolderDescription(path: string, text: string): { folder: FolderDescription; problems: Problem[] } {
  const yaml = parseYamlMap(text, { path, codePrefix: 'library', what: 'folder.yaml' });
  const problems = [...yaml.problems];
  const fields = new FieldReader(yaml.data, {
    path,
    keyLines: yaml.keyLines,
    code: 'library.invalid-field',
    label: 'folder.yaml field',
    problems,
  });
  const folder: FolderDescription = {
    path,
    folder: dirName(path),
    namespace: libraryNamespace(path),
    goodFor: fields.stringList('good_for'),
  };
  const description = fields.string('description');
  if (description) folder.description = description;
  const profile = fields.oneOf('profile', PROFILES);
  if (profile) folder.profile = profile;
  return { folder, problems };
}

/** Reads a pack. `pack` is null only when the file is not a YAML mapping at all. */
export function parsePack(path: string, text: string): { pack: LibraryPack | null; problems: Problem[] } {
  const yaml = parseYamlMap(text, { path, codePrefix: 'library', what: 'pack' });
  const problems = [...yaml.problems];
  if (!yaml.ok) return { pack: null, problems };
  const fields = new FieldReader(yaml.data, {
    path,
    keyLines: yaml.keyLines,
    code: 'library.invalid-field',
    label: 'Pack field',
    problems,
  });
  const pack: LibraryPack = {
    path,
    name: fields.string('name') ?? baseName(path).replace(/\.ya?ml$/i, ''),
    goodFor: fields.stringList('good_for'),
    always: fields.stringList('always'),
    whenRelevant: fields.stringList('when_relevant'),
  };
  const description = fields.string('description');
  if (description) pack.description = description;
  return { pack, problems };
}

/** Reads every library file the source lists. Never throws. */
export async function readLibrary(files: FileSource, options: { folder?: string } = {}): Promise<LibraryContents> {
  const contents: LibraryContents = { docs: [], folders: [], packs: [], problems: [] };
  const exists = (path: string) => files.has(path);
  for (const path of files.list()) {
    const isPage = classifyLibraryPath(path) !== null;
    const isFolder = isFolderDescriptionPath(path);
    const isPack = isPackPath(path);
    if (!isPage && !isFolder && !isPack) continue;
    const text = await files.readText(path);
    if (text === null) continue;
    if (isPage) {
      const page = readLibraryPage({ path, text, folder: options.folder, exists });
      if (page.doc) contents.docs.push(page.doc);
      contents.problems.push(...page.problems);
    } else if (isFolder) {
      const folder = parseFolderDescription(path, text);
      contents.folders.push(folder.folder);
      contents.problems.push(...folder.problems);
    } else {
      const pack = parsePack(path, text);
      if (pack.pack) contents.packs.push(pack.pack);
      contents.problems.push(...pack.problems);
    }
  }
  return contents;
}

/**
 * `[[Page title]]` link targets in order of first appearance, outside code blocks and inline code.
 * `[[Title|shown text]]` links to `Title`.
 */
export function extractPageLinks(markdownBody: string): string[] {
  const lines = splitLines(markdownBody);
  const { code } = scanMarkdown(lines);
  const links: string[] = [];
  lines.forEach((line, index) => {
    if (code[index]) return;
    const withoutCode = line.replace(/(`+)[^`]*?\1/g, '');
    for (const match of withoutCode.matchAll(/\[\[([^[\]|\n]+)(?:\|[^[\]\n]*)?\]\]/g)) {
      const target = match[1].trim();
      if (target !== '' && !links.includes(target)) links.push(target);
    }
  });
  return links;
}

/**
 * True when the page's `expires` date has passed: the page was valid through that day.
 * `today` is a Date (its UTC day is used) or a `YYYY-MM-DD` string.
 */
export function isExpired(library: Pick<LibraryProps, 'expires'>, today: Date | string): boolean {
  if (!library.expires) return false;
  const day = typeof today === 'string' ? today.slice(0, 10) : today.toISOString().slice(0, 10);
  return day > library.expires;
}
