/** Number and table formatting shared by the bench's and the eval's Markdown. */
import type { Summary } from './stats';

export function table(header: readonly string[], rows: readonly (readonly string[])[]): string[] {
  return [
    `| ${header.join(' | ')} |`,
    `| ${header.map(() => '---').join(' | ')} |`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ];
}

/** Milliseconds with about three significant digits. */
export function ms(x: number): string {
  if (!Number.isFinite(x)) return 'n/a';
  return x >= 1000 ? int(x) : x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x >= 1 ? x.toFixed(2) : x.toFixed(3);
}

export function int(x: number): string {
  return Number.isFinite(x) ? Math.round(x).toLocaleString('en') : 'n/a';
}

/** Bytes as MiB with one decimal. */
export function mb(bytes: number): string {
  return (bytes / 2 ** 20).toFixed(1);
}

/** `p50 / p95`, with the sample count when asked. */
export function latency(s: Summary, withN = false): string {
  return `${ms(s.median)} / ${ms(s.p95)}${withN ? ` (${s.n})` : ''}`;
}
