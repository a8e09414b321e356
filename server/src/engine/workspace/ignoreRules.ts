/**
 * Git's exclude rules over a walk: `.gitignore` at every level plus `.git/info/exclude`.
 *
 * Each `.gitignore` applies to its own directory's subtree with paths relative to that directory,
 * and a deeper file overrides a shallower one (so `!keep.md` in `docs/.gitignore` re-includes a
 * file the root ignores); `info/exclude` ranks below every `.gitignore`. This is the precedence
 * gitignore(5) describes. A directory that is excluded is never entered, so, as in git, nothing
 * under it can be re-included. The global `core.excludesFile` is not read.
 */
import ignore, { type Ignore } from 'ignore';

/** Git compares paths case-insensitively where the file system does (core.ignorecase). */
const IGNORE_CASE = process.platform === 'darwin' || process.platform === 'win32';

interface IgnoreLevel {
  readonly rules: Ignore;
  /** Folder-relative directory the rules belong to, with a trailing `/` ('' at the folder). */
  readonly strip: string;
  /** Path from the rules' directory down to the folder, for rules above the folder. */
  readonly prepend: string;
}

/** An immutable stack of rule levels, shallowest first; children share their parent's chain. */
export class IgnoreChain {
  static readonly EMPTY = new IgnoreChain([]);

  private constructor(private readonly levels: readonly IgnoreLevel[]) {}

  /**
   * A chain with one more level.
   * @param text rules in gitignore syntax
   * @param dirRel folder-relative directory holding the rules ('' for the folder itself)
   * @param abovePrefix for rules in a directory above the workspace folder: the folder's path
   *   relative to that directory, e.g. `services/billing` (then `dirRel` must be '')
   */
  with(text: string, dirRel: string, abovePrefix = ''): IgnoreChain {
    const rules = ignore({ ignorecase: IGNORE_CASE }).add(text);
    const level: IgnoreLevel = {
      rules,
      strip: dirRel === '' ? '' : `${dirRel}/`,
      prepend: abovePrefix === '' ? '' : `${abovePrefix}/`,
    };
    return new IgnoreChain([...this.levels, level]);
  }

  /**
   * True when git would exclude the folder-relative path. Pass directories with a trailing `/`
   * (`build/`), as gitignore patterns ending in `/` match only directories.
   */
  ignores(folderRel: string): boolean {
    for (let i = this.levels.length - 1; i >= 0; i--) {
      const level = this.levels[i];
      if (!folderRel.startsWith(level.strip)) continue;
      const rel = level.prepend + folderRel.slice(level.strip.length);
      if (rel === '' || rel === '/') continue;
      const result = level.rules.test(rel);
      if (result.ignored) return true;
      if (result.unignored) return false;
    }
    return false;
  }
}
