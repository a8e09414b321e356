/**
 * Reading a unified diff as `git diff` (or `git show`, `git format-patch`, `diff -u`) prints it:
 * which files it changes, how (added, deleted, modified, renamed) and which lines (each hunk's
 * old and new line ranges), so a change to a catalog file can name the entities whose lines it
 * touches.
 *
 * Parsing never fails on content: a line the parser does not understand is skipped and counted
 * in `problems` (the first few, with their line numbers); what it did understand still counts.
 * Understood:
 * - `diff --git a/X b/Y` headers with `new file mode`, `deleted file mode`, `rename from/to`,
 *   `copy from/to`, `Binary files ... differ` and `GIT binary patch` (a binary file changes, no
 *   lines);
 * - `--- a/X` / `+++ b/Y` pairs with or without a `diff --git` line before them (`diff -u`),
 *   `/dev/null` for an added or deleted file, the `a/` and `b/` prefixes or none
 *   (`--no-prefix`), C-quoted names (`"a/with space"`) and a tab-separated timestamp after a name;
 * - hunks `@@ -a,b +c,d @@`, counting their `+`, `-` and context lines, so a `+++` or `---`
 *   line inside a hunk is read as content, not as a header;
 * - a mail header or commit message before the first file (`git show`, `format-patch`), ignored.
 */

export type ChangeStatus = 'added' | 'deleted' | 'modified' | 'renamed';

/** One hunk's line ranges (1-based; a count of 0 is an empty side). */
export interface DiffHunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
}

export interface DiffFile {
  /** The path after the change (before it, for a deleted file), as the diff names it, prefix removed. */
  path: string;
  /** The path before the change, for a rename or copy. */
  oldPath?: string;
  status: ChangeStatus;
  hunks: DiffHunk[];
  /** Lines added and removed. */
  added: number;
  removed: number;
  /** The lines added (new side) and removed (old side), as inclusive ranges in order. */
  addedLines: [number, number][];
  removedLines: [number, number][];
  binary: boolean;
}

export interface ParsedDiff {
  files: DiffFile[];
  /** Lines that could not be read, at most {@link MAX_PROBLEMS}: `line 12: ...`. */
  problems: string[];
}

export const MAX_PROBLEMS = 5;

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

export function parseUnifiedDiff(text: string): ParsedDiff {
  const files: DiffFile[] = [];
  const problems: string[] = [];
  let problemCount = 0;
  const problem = (line: number, message: string) => {
    problemCount++;
    if (problems.length < MAX_PROBLEMS) problems.push(`line ${line}: ${message}`);
  };
  const lines = text.split(/\r?\n/);
  let current: (DiffFile & { fromHeader: { a?: string; b?: string } }) | undefined;
  // Lines left in the current hunk, per side.
  let oldLeft = 0;
  let newLeft = 0;
  // The line numbers the next old and new lines of the current hunk have.
  let oldLine = 0;
  let newLine = 0;
  // The current file's `---`/`+++` names were read: another pair starts another file.
  let namesRead = false;
  const finish = () => {
    if (!current) return;
    const { fromHeader, ...file } = current;
    if (file.path === '') file.path = fromHeader.b ?? fromHeader.a ?? '';
    if (file.path !== '') files.push(file);
    current = undefined;
    namesRead = false;
  };
  const start = (): DiffFile & { fromHeader: { a?: string; b?: string } } => ({
    path: '',
    status: 'modified',
    hunks: [],
    added: 0,
    removed: 0,
    addedLines: [],
    removedLines: [],
    binary: false,
    fromHeader: {},
  });

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const lineNo = i + 1;
    if (current && (oldLeft > 0 || newLeft > 0)) {
      // Inside a hunk: every line is content until both sides are counted out.
      if (line.startsWith('+')) {
        current.added++;
        addLine(current.addedLines, newLine++);
        newLeft--;
        continue;
      }
      if (line.startsWith('-')) {
        current.removed++;
        addLine(current.removedLines, oldLine++);
        oldLeft--;
        continue;
      }
      if (line.startsWith(' ') || line === '') {
        oldLeft--;
        newLeft--;
        oldLine++;
        newLine++;
        continue;
      }
      if (line.startsWith('\\')) continue; // "\ No newline at end of file"
      // A short hunk (a hand-edited diff): the header below starts anew.
      oldLeft = 0;
      newLeft = 0;
    }
    if (line.startsWith('\\')) continue;
    if (line.startsWith('diff --git ')) {
      finish();
      current = start();
      const names = splitGitHeader(line.slice('diff --git '.length));
      if (names) current.fromHeader = { a: stripPrefix(names[0], 'a/'), b: stripPrefix(names[1], 'b/') };
      else problem(lineNo, 'a "diff --git" line whose two paths could not be told apart');
      continue;
    }
    if (line.startsWith('--- ') && lines[i + 1]?.startsWith('+++ ')) {
      if (!current || current.hunks.length > 0 || namesRead) {
        finish();
        current = start();
      }
      namesRead = true;
      const oldName = headerName(line.slice(4), 'a/');
      const newName = headerName(lines[i + 1].slice(4), 'b/');
      i++;
      if (oldName === null && newName === null) {
        problem(lineNo, 'a file header with /dev/null on both sides');
        continue;
      }
      if (oldName === null) current.status = 'added';
      else if (newName === null) current.status = 'deleted';
      if (current.status !== 'renamed') current.path = newName ?? oldName ?? '';
      if (oldName !== null && newName !== null && oldName !== newName) {
        current.path = newName;
        current.status = 'renamed';
        current.oldPath = oldName;
      }
      continue;
    }
    const hunk = HUNK.exec(line);
    if (hunk) {
      if (!current) {
        problem(lineNo, 'a hunk before any file header');
        continue;
      }
      const h: DiffHunk = {
        oldStart: Number(hunk[1]),
        oldLines: hunk[2] === undefined ? 1 : Number(hunk[2]),
        newStart: Number(hunk[3]),
        newLines: hunk[4] === undefined ? 1 : Number(hunk[4]),
      };
      current.hunks.push(h);
      oldLeft = h.oldLines;
      newLeft = h.newLines;
      oldLine = h.oldStart;
      newLine = h.newStart;
      continue;
    }
    if (!current) continue; // a commit message, a mail header, text before the first file
    if (line.startsWith('new file mode')) current.status = 'added';
    else if (line.startsWith('deleted file mode')) current.status = 'deleted';
    else if (line.startsWith('rename from ') || line.startsWith('copy from ')) {
      current.oldPath = unquote(line.slice(line.indexOf(' from ') + 6));
      current.status = 'renamed';
    } else if (line.startsWith('rename to ') || line.startsWith('copy to ')) {
      current.path = unquote(line.slice(line.indexOf(' to ') + 4));
      current.status = 'renamed';
    } else if (line.startsWith('Binary files ') || line === 'GIT binary patch') current.binary = true;
    else if (
      /^(index |old mode |new mode |similarity index |dissimilarity index |literal |delta )/.test(line) ||
      line === '' ||
      /^[A-Za-z0-9+/=]+$/.test(line) // the base85 lines of a binary patch
    )
      continue;
    else if (current.hunks.length > 0 && /^(diff |Only in |From |commit )/.test(line)) {
      // Another tool's header (`diff -u a b`, a second commit of `git log -p`): the next file starts.
      finish();
    } else problem(lineNo, `not part of a unified diff: "${line.slice(0, 60)}"`);
  }
  finish();
  if (problemCount > problems.length) problems.push(`and ${problemCount - problems.length} more lines like these`);
  return { files: mergeSamePath(files), problems };
}

/** Adds `line` to ranges kept in order, extending the last range when it continues it. */
function addLine(ranges: [number, number][], line: number): void {
  const last = ranges[ranges.length - 1];
  if (last && last[1] + 1 === line) last[1] = line;
  else ranges.push([line, line]);
}

/** The two names of `diff --git a/X b/Y`, quoted or not; null when they cannot be told apart. */
function splitGitHeader(rest: string): [string, string] | null {
  if (rest.startsWith('"')) {
    const end = closingQuote(rest, 0);
    if (end < 0) return null;
    const first = unquote(rest.slice(0, end + 1));
    const second = rest.slice(end + 1).trim();
    return [first, unquote(second)];
  }
  // Unquoted: "a/X b/Y" where X and Y are the same when nothing was renamed.
  const half = (rest.length - 1) / 2;
  if (Number.isInteger(half) && rest[half] === ' ') {
    const a = rest.slice(0, half);
    const b = rest.slice(half + 1);
    if (stripPrefix(a, 'a/') === stripPrefix(b, 'b/')) return [a, b];
  }
  const quotedSecond = rest.indexOf(' "');
  if (quotedSecond > 0) return [rest.slice(0, quotedSecond), unquote(rest.slice(quotedSecond + 1))];
  const split = rest.indexOf(' b/');
  if (split > 0) return [rest.slice(0, split), rest.slice(split + 1)];
  return null;
}

/** A `---`/`+++` name: quotes removed, timestamp dropped, prefix removed; null for /dev/null. */
function headerName(raw: string, prefix: string): string | null {
  let name = raw.startsWith('"') ? unquote(raw.slice(0, closingQuote(raw, 0) + 1)) : raw.split('\t')[0].trimEnd();
  if (name === '/dev/null') return null;
  name = stripPrefix(name, prefix);
  return name;
}

function stripPrefix(name: string, prefix: string): string {
  return name.startsWith(prefix) ? name.slice(prefix.length) : name;
}

function closingQuote(text: string, open: number): number {
  for (let i = open + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i;
  }
  return -1;
}

const ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  '"': '"',
  '\\': '\\',
  a: '\x07',
  b: '\b',
  f: '\f',
  r: '\r',
  v: '\v',
};

/** Git's C-style quoting undone (octal escapes are UTF-8 bytes); an unquoted name as it is. */
function unquote(name: string): string {
  const trimmed = name.trim();
  if (!(trimmed.startsWith('"') && trimmed.endsWith('"') && trimmed.length >= 2)) return trimmed;
  const bytes: number[] = [];
  const body = trimmed.slice(1, -1);
  for (let i = 0; i < body.length; i++) {
    const ch = body[i];
    if (ch !== '\\') {
      for (const b of Buffer.from(ch, 'utf8')) bytes.push(b);
      continue;
    }
    const next = body[i + 1] ?? '';
    if (/[0-7]/.test(next)) {
      const octal = /^[0-7]{1,3}/.exec(body.slice(i + 1))![0];
      bytes.push(Number.parseInt(octal, 8));
      i += octal.length;
    } else {
      for (const b of Buffer.from(ESCAPES[next] ?? next, 'utf8')) bytes.push(b);
      i++;
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** A path changed twice in one diff (two commits of a `git log -p`): one file, hunks together. */
function mergeSamePath(files: DiffFile[]): DiffFile[] {
  const byPath = new Map<string, DiffFile>();
  for (const file of files) {
    const seen = byPath.get(file.path);
    if (!seen) {
      byPath.set(file.path, file);
      continue;
    }
    seen.hunks.push(...file.hunks);
    seen.added += file.added;
    seen.removed += file.removed;
    seen.addedLines.push(...file.addedLines);
    seen.removedLines.push(...file.removedLines);
    seen.binary ||= file.binary;
    // Added then changed is still added; anything then deleted is deleted.
    if (file.status === 'deleted') seen.status = 'deleted';
  }
  return [...byPath.values()];
}

/**
 * The diff with `prefix` (a folder name) put before every path it names, for a diff read in one
 * of several served folders: `diff --git a/x b/x` becomes `diff --git a/<prefix>/x b/<prefix>/x`.
 * Hunk content is left alone (the parser tells headers from content by counting hunk lines).
 */
export function prefixDiffPaths(diff: string, prefix: string): string {
  const lines = diff.split('\n');
  let oldLeft = 0;
  let newLeft = 0;
  const prefixed = (name: string, side: 'a/' | 'b/') => {
    const path = `${side}${prefix}/${name.startsWith(side) ? name.slice(2) : name}`;
    return /["\\\t\n]/.test(path) ? JSON.stringify(path) : path;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (oldLeft > 0 || newLeft > 0) {
      if (line.startsWith('+')) newLeft--;
      else if (line.startsWith('-')) oldLeft--;
      else if (!line.startsWith('\\')) {
        oldLeft--;
        newLeft--;
      }
      continue;
    }
    const hunk = HUNK.exec(line);
    if (hunk) {
      oldLeft = hunk[2] === undefined ? 1 : Number(hunk[2]);
      newLeft = hunk[4] === undefined ? 1 : Number(hunk[4]);
      continue;
    }
    if (line.startsWith('diff --git ')) {
      const names = splitGitHeader(line.slice('diff --git '.length));
      if (names) lines[i] = `diff --git ${prefixed(names[0], 'a/')} ${prefixed(names[1], 'b/')}`;
    } else if (line.startsWith('--- ') || line.startsWith('+++ ')) {
      const raw = line.slice(4);
      const name = raw.startsWith('"') ? unquote(raw.slice(0, closingQuote(raw, 0) + 1)) : raw.split('\t')[0];
      if (name !== '/dev/null') lines[i] = `${line.slice(0, 4)}${prefixed(name, line.startsWith('---') ? 'a/' : 'b/')}`;
    } else if (/^(rename|copy) (from|to) /.test(line)) {
      const at = line.indexOf(line.includes(' from ') ? ' from ' : ' to ') + (line.includes(' from ') ? 6 : 4);
      lines[i] = `${line.slice(0, at)}${prefix}/${line.slice(at)}`;
    }
  }
  return lines.join('\n');
}

/** The header of an untracked file as `git diff` would print it for a new empty file (no content lines). */
export function untrackedFileHeader(path: string): string {
  return `diff --git a/${path} b/${path}\nnew file mode 100644\n--- /dev/null\n+++ b/${path}\n`;
}
