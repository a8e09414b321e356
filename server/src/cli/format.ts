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
