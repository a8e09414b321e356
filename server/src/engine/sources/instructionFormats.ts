/**
 * Which files belong to the library (docs/ARCHITECTURE.md, "What is read") and in which format they came.
 *
 * The library is `.context/**` plus the instruction files coding agents already read:
 *
 * | file | format | default type |
 * | --- | --- | --- |
 * | `.context/instructions.md` | `context-page` | `instructions` (the team's agent instructions) |
 * | `.context/**\/*.md` | `context-page` | none |
 * | `AGENTS.md` (any folder) | `agents-md` | `instructions` |
 * | `CLAUDE.md` (any folder) | `claude-md` | `instructions` |
 * | `.github/copilot-instructions.md` | `copilot-instructions` | `instructions` |
 * | `.github/instructions/**\/*.instructions.md` | `instructions-md` | `instructions` |
 * | `.cursor/rules/**\/*.mdc` | `cursor-mdc` | `instructions` |
 * | `.windsurf/rules/**\/*.md` | `windsurf-md` | `instructions` |
 *
 * A `.context` folder may sit at any depth (one per repository in a multi-repo workspace).
 */
import type { DocFormat } from '../model';
import type { SourceRole } from '../workspace/globs';
import { extName } from './paths';

export interface LibraryFile {
  format: DocFormat;
  /** The type a page gets when its front matter names none. */
  defaultType?: string;
  /** The first folder under `.context/` ('' at its top and for files outside `.context`). */
  namespace: string;
  /** True for `.context/instructions.md`. */
  teamInstructions: boolean;
}

export const INSTRUCTIONS_TYPE = 'instructions';

/** The library's file patterns, for discovery and file watching. */
export const LIBRARY_GLOBS: readonly string[] = [
  '**/.context/**/*.md',
  '**/.context/**/folder.{yaml,yml}',
  '**/.context/packs/*.{yaml,yml}',
  '**/AGENTS.md',
  '**/CLAUDE.md',
  '**/.github/copilot-instructions.md',
  '**/.github/instructions/**/*.instructions.md',
  '**/.cursor/rules/**/*.mdc',
  '**/.windsurf/rules/**/*.md',
];

/** The library format of a Markdown file, or null when the file is not part of the library. */
export function classifyLibraryPath(path: string): LibraryFile | null {
  const segments = path.split('/');
  const name = segments[segments.length - 1];
  const contextAt = segments.lastIndexOf('.context', segments.length - 2);
  if (contextAt >= 0 && extName(path) === 'md') {
    const inside = segments.slice(contextAt + 1);
    const teamInstructions = inside.length === 1 && name.toLowerCase() === 'instructions.md';
    return {
      format: 'context-page',
      ...(teamInstructions ? { defaultType: INSTRUCTIONS_TYPE } : {}),
      namespace: inside.length > 1 ? inside[0] : '',
      teamInstructions,
    };
  }
  const instructions = (format: DocFormat): LibraryFile => ({
    format,
    defaultType: INSTRUCTIONS_TYPE,
    namespace: '',
    teamInstructions: false,
  });
  if (name === 'AGENTS.md') return instructions('agents-md');
  if (name === 'CLAUDE.md') return instructions('claude-md');
  const parent = segments[segments.length - 2];
  if (parent === '.github' && name === 'copilot-instructions.md') return instructions('copilot-instructions');
  const githubAt = segments.lastIndexOf('.github', segments.length - 3);
  if (githubAt >= 0 && segments[githubAt + 1] === 'instructions' && name.endsWith('.instructions.md')) {
    return instructions('instructions-md');
  }
  const cursorAt = segments.lastIndexOf('.cursor', segments.length - 3);
  if (cursorAt >= 0 && segments[cursorAt + 1] === 'rules' && extName(path) === 'mdc') return instructions('cursor-mdc');
  const windsurfAt = segments.lastIndexOf('.windsurf', segments.length - 3);
  if (windsurfAt >= 0 && segments[windsurfAt + 1] === 'rules' && extName(path) === 'md')
    return instructions('windsurf-md');
  return null;
}

/** The instruction formats agents read, by the source role (globs.ts) that finds them. */
const INSTRUCTION_ROLES: readonly [SourceRole, DocFormat][] = [
  ['agentsMd', 'agents-md'],
  ['claudeMd', 'claude-md'],
  ['copilotInstructions', 'copilot-instructions'],
  ['instructionFiles', 'instructions-md'],
  ['cursorRules', 'cursor-mdc'],
  ['windsurfRules', 'windsurf-md'],
];

/**
 * The library format of a file from the roles its path matched (the `sources.library`,
 * `agentsMd`, `claudeMd`, `copilotInstructions`, `instructionFiles`, `cursorRules` and `windsurfRules` globs), or
 * null when none of them takes it or it is not Markdown. A page inside `.context/` keeps that
 * folder's conventions (its namespace, `.context/instructions.md` as the team's instructions);
 * any other file the library globs take is a page of the top namespace.
 */
export function libraryFileByRoles(path: string, roles: readonly SourceRole[]): LibraryFile | null {
  const ext = extName(path);
  if (ext !== 'md' && ext !== 'mdc') return null;
  const byPath = classifyLibraryPath(path);
  if (roles.includes('library') && byPath?.format === 'context-page') return byPath;
  for (const [role, format] of INSTRUCTION_ROLES) {
    if (roles.includes(role)) return { format, defaultType: INSTRUCTIONS_TYPE, namespace: '', teamInstructions: false };
  }
  if (roles.includes('library')) return { format: 'context-page', namespace: '', teamInstructions: false };
  return null;
}

/** `.context/**\/folder.yaml` (or `.yml`). */
export function isFolderDescriptionPath(path: string): boolean {
  return /(^|\/)\.context\/(.+\/)?folder\.ya?ml$/.test(path);
}

/** `.context/packs/*.yaml` (or `.yml`). */
export function isPackPath(path: string): boolean {
  return /(^|\/)\.context\/packs\/[^/]+\.ya?ml$/.test(path);
}

/** The namespace of any path under `.context/`: its first folder there ('' at the top). */
export function libraryNamespace(path: string): string {
  const segments = path.split('/');
  const contextAt = segments.lastIndexOf('.context', segments.length - 2);
  if (contextAt < 0) return '';
  const inside = segments.slice(contextAt + 1);
  return inside.length > 1 ? inside[0] : '';
}

/**
 * Copilot and Cursor read front matter leniently, and their files often hold unquoted globs
 * (`applyTo: **\/*.ts`, `globs: *.tsx`) that strict YAML reads as aliases. Quotes such values in
 * the front matter block only; the line count is unchanged so problems keep their lines.
 */
export function quoteBareGlobs(text: string): string {
  const lines = text.split('\n');
  if (!/^\uFEFF?---\s*$/.test(lines[0] ?? '')) return text;
  for (let i = 1; i < lines.length; i++) {
    if (/^(---|\.\.\.)\s*$/.test(lines[i])) break;
    const match = /^(\s*(?:applyTo|globs)\s*:\s*)(\*[^\r]*?)(\s*\r?)$/.exec(lines[i]);
    if (match) lines[i] = `${match[1]}'${match[2].replace(/'/g, "''")}'${match[3]}`;
  }
  return lines.join('\n');
}
