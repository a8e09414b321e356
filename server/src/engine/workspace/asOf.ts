/**
 * `asOf`: which commit a repository was at, at a time or at a named commit (docs/ARCHITECTURE.md, "Identity, commits, freshness").
 */
import { defaultGitRunner } from './gitHelper';
import { GIT_LOG_SAFE_OPTIONS, GitUnavailableError, type GitRunner } from './gitRunner';

export type AsOfFailure =
  /** Neither an ISO date-time nor a plausible commit-ish. */
  | 'invalid'
  /** No git, or the directory is not in a git work tree. */
  | 'no-git'
  /** The repository has no commits yet. */
  | 'no-commits'
  /** The time is older than the repository's first commit. */
  | 'before-history'
  /** A shallow clone does not hold the history asked for. */
  | 'shallow'
  /** The commit-ish names no commit. */
  | 'unknown-commit';

export type AsOfResolution =
  | { ok: true; commit: string /** Committer time of `commit`, epoch ms. */; commitTime: number }
  | { ok: false; reason: AsOfFailure; message: string };

/** `YYYY-MM-DD`, optionally with `THH:MM[:SS[.fff]]` (or a space for `T`) and a zone. */
const ISO_DATE_TIME = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?)(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;

/**
 * Epoch ms of an ISO 8601 date or date-time, as `Date.parse` reads it: a date alone is 00:00 UTC,
 * a date-time without a zone is local time. Null when `text` is not one.
 */
export function parseIsoDateTime(text: string): number | null {
  const match = ISO_DATE_TIME.exec(text.trim());
  if (!match) return null;
  const [, date, time, zone] = match;
  if (!validFields(date, time)) return null;
  let normalized = date;
  if (time !== undefined) {
    normalized += `T${time}`;
    if (zone !== undefined) {
      if (/^z$/i.test(zone)) normalized += 'Z';
      else if (zone.length === 3) normalized += `${zone}:00`;
      else normalized += zone.includes(':') ? zone : `${zone.slice(0, 3)}:${zone.slice(3)}`;
    }
  }
  const ms = Date.parse(normalized);
  return Number.isNaN(ms) ? null : ms;
}

/**
 * True when the date's month and day and the time's fields exist (`Date.parse` rolls 2024-02-30
 * over to March 1st instead of refusing it).
 */
function validFields(date: string, time: string | undefined): boolean {
  const [year, month, day] = date.split('-').map(Number);
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth) return false;
  if (time === undefined) return true;
  const [hours, minutes, seconds = 0] = time.split(':').map(Number);
  return hours <= 23 && minutes <= 59 && seconds < 61;
}

/**
 * The commit `asOf` names in the repository at `absRoot`.
 *
 * - An ISO date or date-time names the last commit at or before that instant on HEAD's
 *   first-parent history (the state the main line was in then, not a side branch's commit that
 *   was merged later): `git log -1 --first-parent --before='@<seconds> +0000' HEAD`. A time before the first commit
 *   (or before 1970) is `before-history`: the repository had no files then.
 * - Anything else is a commit-ish (sha, prefix, tag, branch, `HEAD~3`) verified with
 *   `git rev-parse --verify`.
 *
 * Never throws; failures say what is missing and what to do.
 */
export async function resolveAsOf(
  absRoot: string,
  asOf: string,
  options: { runner?: GitRunner } = {},
): Promise<AsOfResolution> {
  const runner = options.runner ?? defaultGitRunner();
  const text = asOf.trim();
  if (text === '' || text.startsWith('-') || (/[\s\0]/.test(text) && parseIsoDateTime(text) === null)) {
    return fail('invalid', `asOf "${asOf}" is neither an ISO 8601 date-time (2024-05-01T12:00:00Z) nor a commit`);
  }
  // Shaped like a date but not one (2024-13-45, 2024-02-30T25:00): an error, never a commit name.
  if (/^\d{4}-\d{2}-\d{2}/.test(text) && parseIsoDateTime(text) === null) {
    return fail('invalid', `asOf "${asOf}" is not a valid ISO 8601 date-time (2024-05-01 or 2024-05-01T12:00:00Z)`);
  }
  try {
    const inside = await runner.run(['rev-parse', '--is-inside-work-tree', '--is-shallow-repository'], absRoot);
    if (inside.code !== 0 || !inside.stdout.startsWith('true')) {
      return fail('no-git', `asOf needs git history, but ${absRoot} is not in a git repository`);
    }
    const shallow = inside.stdout.split('\n')[1] === 'true';
    const head = await runner.run(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], absRoot);
    if (head.code !== 0)
      return fail('no-commits', `asOf needs git history, but the repository at ${absRoot} has no commits yet`);

    const time = parseIsoDateTime(text);
    if (time !== null) {
      const seconds = Math.floor(time / 1000);
      // Before 1970 no commit can be found by git's date filter; say so instead of asking it.
      if (seconds < 0)
        return fail('before-history', `asOf ${new Date(time).toISOString()} is before the repository's history`);
      // `@<seconds> +0000`, not `@<seconds>`: git reads a bare `@<number>` under 9 digits (any time
      // before 1973) as something else and answers with HEAD.
      const found = await runner.run(
        [
          'log',
          ...GIT_LOG_SAFE_OPTIONS,
          '-1',
          '--first-parent',
          `--before=@${seconds} +0000`,
          '--format=%H %ct',
          'HEAD',
          '--',
        ],
        absRoot,
      );
      const parsed = parseCommitLine(found.stdout);
      if (found.code === 0 && parsed) return { ok: true, ...parsed };
      const iso = new Date(time).toISOString();
      if (shallow) {
        return fail(
          'shallow',
          `asOf ${iso}: this shallow clone holds no commit that old; fetch more history (git fetch --unshallow) to read the workspace as of that time`,
        );
      }
      const first = await runner.run(
        ['log', ...GIT_LOG_SAFE_OPTIONS, '-1', '--max-parents=0', '--format=%ct', 'HEAD', '--'],
        absRoot,
      );
      const firstSeconds = Number(first.stdout.trim());
      const since =
        first.stdout.trim() !== '' && Number.isFinite(firstSeconds) ? new Date(firstSeconds * 1000).toISOString() : '';
      return fail(
        'before-history',
        `asOf ${iso} is before the repository's history${since ? `, which starts at ${since}` : ''}`,
      );
    }

    const verified = await runner.run(['rev-parse', '--verify', '--quiet', `${text}^{commit}`], absRoot);
    if (verified.code !== 0) {
      return shallow
        ? fail(
            'shallow',
            `asOf "${text}" names no commit in this shallow clone; it may be outside the fetched history (git fetch --unshallow)`,
          )
        : fail('unknown-commit', `asOf "${text}" names no commit in the repository at ${absRoot}`);
    }
    const sha = verified.stdout.trim();
    const shown = await runner.run(
      ['log', ...GIT_LOG_SAFE_OPTIONS, '-1', '--no-walk', '--format=%H %ct', sha, '--'],
      absRoot,
    );
    const parsed = parseCommitLine(shown.stdout);
    return parsed
      ? { ok: true, ...parsed }
      : fail('unknown-commit', `asOf "${text}" resolved to ${sha}, which git cannot show`);
  } catch (error) {
    if (error instanceof GitUnavailableError) return fail('no-git', `asOf needs git history: ${error.message}`);
    return fail('no-git', `asOf could not read git history: ${(error as Error).message}`);
  }
}

function parseCommitLine(stdout: string): { commit: string; commitTime: number } | null {
  const match = /^([0-9a-f]{40,64}) (\d+)$/m.exec(stdout.trim());
  return match ? { commit: match[1], commitTime: Number(match[2]) * 1000 } : null;
}

function fail(reason: AsOfFailure, message: string): AsOfResolution {
  return { ok: false, reason, message };
}
