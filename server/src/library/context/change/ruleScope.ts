/**
 * Which rule and instruction files apply to a set of changed paths (`get_context`'s
 * `rule-applies` items), and why:
 *
 * - `globs`: a page whose `applyTo` (Copilot's `*.instructions.md`) or `globs` (Cursor's
 *   `.mdc`) match a changed path. Globs are read from the folder that holds the tool's folder
 *   (`.github/`, `.cursor/`, `.context/`): the repository root for the usual layout. They are
 *   compiled by the engine's glob matcher (linear in the path, bounded in size:
 *   engine/workspace/globMatch.ts), never as a regular expression;
 * - `folder`: an `AGENTS.md` or `CLAUDE.md` in a changed path's folder or a folder above it,
 *   the nearest first (an agent working on the file reads those);
 * - `repository`: instructions for everything under their repository (a Cursor rule with
 *   `alwaysApply: true`, `.github/copilot-instructions.md`), after the others.
 *
 * Rule pages (`type: rule`) come in full in every bundle anyway and are not repeated here; the
 * team's instructions (`.context/instructions.md`) neither.
 */
import { compileGlobs, type Doc } from '../../../engine';
import { dirOf } from './changeOwners';

export type RuleScopeReason = 'globs' | 'folder' | 'repository';

export interface ApplyingRule {
  doc: Doc;
  why: RuleScopeReason;
  /** The changed paths it applies to, in the change's order. */
  paths: string[];
  /** The globs that matched (`globs` only). */
  globs?: string[];
}

type Matcher = (path: string) => boolean;
const matchers = new WeakMap<Doc, Matcher>();

/** The page's globs as one matcher over paths relative to its base folder (cached per page). */
function matcherOf(doc: Doc): Matcher {
  let matcher = matchers.get(doc);
  if (!matcher) {
    const globs = (doc.library?.applyTo ?? []).map((g) => g.trim()).filter((g) => g !== '');
    const compiled = compileGlobs(globs, { dot: true });
    const base = baseOf(doc);
    matcher = (path) => {
      const relative = base === '' ? path : path.startsWith(`${base}/`) ? path.slice(base.length + 1) : null;
      return relative !== null && compiled(relative);
    };
    matchers.set(doc, matcher);
  }
  return matcher;
}

/**
 * The folder a page's globs are relative to: the folder holding its `.github`, `.cursor` or
 * `.context` folder; its own folder otherwise.
 */
export function baseOf(doc: Doc): string {
  const segments = doc.path.split('/');
  for (const tool of ['.github', '.cursor', '.context']) {
    const at = segments.lastIndexOf(tool, segments.length - 2);
    if (at >= 0) return segments.slice(0, at).join('/');
  }
  return dirOf(doc.path);
}

/** The rule and instruction files of `docs` (ready library pages) that apply to `paths`, ordered as the module says. */
export function rulesForPaths(docs: readonly Doc[], paths: readonly string[]): ApplyingRule[] {
  const byGlobs: ApplyingRule[] = [];
  const byFolder: (ApplyingRule & { distance: number })[] = [];
  const byRepository: ApplyingRule[] = [];
  for (const doc of docs) {
    const library = doc.library;
    if (!library || library.type === 'rule') continue;
    const under = (folder: string) => paths.filter((p) => folder === '' || p.startsWith(`${folder}/`));
    if ((library.applyTo?.length ?? 0) > 0) {
      const match = matcherOf(doc);
      const matched = paths.filter(match);
      if (matched.length > 0) byGlobs.push({ doc, why: 'globs', paths: matched, globs: library.applyTo });
      continue;
    }
    if (doc.format === 'agents-md' || doc.format === 'claude-md') {
      const folder = dirOf(doc.path);
      const matched = under(folder);
      if (matched.length === 0) continue;
      // Nearest first: how many folders below this one the closest changed path sits.
      const depth = folder === '' ? 0 : folder.split('/').length;
      const distance = Math.min(...matched.map((p) => p.split('/').length - 1 - depth));
      byFolder.push({ doc, why: 'folder', paths: matched, distance });
      continue;
    }
    if (doc.format === 'copilot-instructions' || (doc.format === 'cursor-mdc' && library.alwaysApply === true)) {
      const matched = under(baseOf(doc));
      if (matched.length > 0) byRepository.push({ doc, why: 'repository', paths: matched });
    }
  }
  byGlobs.sort((a, b) => b.paths.length - a.paths.length || byPath(a.doc, b.doc));
  byFolder.sort((a, b) => a.distance - b.distance || byPath(a.doc, b.doc));
  byRepository.sort((a, b) => byPath(a.doc, b.doc));
  return [...byGlobs, ...byFolder.map(({ distance: _distance, ...rule }) => rule), ...byRepository];
}

function byPath(a: Doc, b: Doc): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}
