/**
 * Plain-text layout helpers for `wsctx`: aligned tables and count lists. No colours: output is
 * often piped into files, logs and agents.
 */

/** Left-aligned columns separated by two spaces; numbers right-aligned. */
export function table(rows: readonly (readonly (string | number)[])[], indent = '  '): string {
  if (rows.length === 0) return '';
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, String(cell).length)));
  return rows
    .map(
      (row) =>
        indent +
        row
          .map((cell, i) => {
            const text = String(cell);
            const last = i === row.length - 1;
            if (typeof cell === 'number') return text.padStart(widths[i]);
            return last ? text : text.padEnd(widths[i]);
          })
          .join('  ')
          .trimEnd(),
    )
    .join('\n');
}

/** `{a: 2, b: 1}` as table rows sorted by count, then name. */
export function countRows(counts: Readonly<Record<string, number>>): (string | number)[][] {
  return Object.entries(counts)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([name, n]) => [name, n]);
}

export function seconds(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`;
}

/** A duration a person waits for: "40 s", "12 min", "1.5 h". */
export function formatDuration(seconds: number): string {
  if (seconds < 90) return `${Math.max(1, Math.round(seconds))} s`;
  if (seconds < 5400) return `${Math.round(seconds / 60)} min`;
  return `${(seconds / 3600).toFixed(1)} h`;
}

/** Marks a span (a heading path, a title) that fitToColumns never breaks; the marks are removed. */
export const KEEP_OPEN = '\u0001';
export const KEEP_CLOSE = '\u0002';
export function keepTogether(span: string): string {
  return `${KEEP_OPEN}${span}${KEEP_CLOSE}`;
}

/**
 * `text` with every line that passes `width` wrapped at its spaces, each continuation indented two
 * more than its line (past a `- ` or `1. ` marker: under the text), so every line fits; a word
 * too long for any line (a `file:` link, a long path) stays where it is and runs past the edge,
 * never cut, and a span marked with {@link keepTogether} breaks only between its headings. The
 * spacing within a line (a table's columns) is kept.
 */
export function fitToColumns(text: string, width: number): string {
  return text
    .split('\n')
    .flatMap((line) => fitLine(line, width))
    .join('\n')
    .replaceAll(KEEP_OPEN, '')
    .replaceAll(KEEP_CLOSE, '');
}

/** The line's words, each with the spaces before it; a kept span is one word. */
function words(line: string): { gap: string; word: string }[] {
  const out: { gap: string; word: string }[] = [];
  const pattern = new RegExp(`(\\s*)((?:${KEEP_OPEN}[^${KEEP_CLOSE}]*${KEEP_CLOSE}|[^\\s${KEEP_OPEN}])+)`, 'g');
  for (const match of line.matchAll(pattern)) out.push({ gap: match[1], word: match[2] });
  return out;
}

/**
 * A kept span longer than `room` split at its ` > ` separators (a heading path too long for any
 * line wraps between its headings, never inside one).
 */
function pieces(list: { gap: string; word: string }[], room: number): { gap: string; word: string }[] {
  return list.flatMap(({ gap, word }) => {
    if (shown(word) <= room || !word.startsWith(KEEP_OPEN)) return [{ gap, word }];
    const parts = word.slice(1, -1).split(' > ');
    return parts.map((part, i) => ({
      gap: i === 0 ? gap : ' ',
      word: keepTogether(i < parts.length - 1 ? `${part} >` : part),
    }));
  });
}

/** Length as printed (the keep marks take no room). */
function shown(text: string): number {
  return text.replaceAll(KEEP_OPEN, '').replaceAll(KEEP_CLOSE, '').length;
}

function fitLine(line: string, width: number): string[] {
  if (shown(line) <= width) return [line];
  const lead = /^\s*/.exec(line)![0];
  const marker = /^\s*(?:[-*] |\d+\. )/.exec(line)?.[0];
  const hang = ' '.repeat(Math.min(marker ? marker.length : lead.length + 2, Math.floor(width / 2)));
  const lines: string[] = [];
  let current = '';
  for (const [i, { gap, word }] of pieces(words(line), width - hang.length).entries()) {
    if (i === 0) current = gap + word;
    else if (shown(current) + gap.length + shown(word) > width && hang.length + shown(word) <= width) {
      lines.push(current);
      current = hang + word;
    } else current += gap + word;
  }
  lines.push(current);
  return lines;
}
