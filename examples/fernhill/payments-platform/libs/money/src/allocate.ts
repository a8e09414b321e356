// component:fernhill-money: integer minor-unit arithmetic shared by component:billing-worker
// and component:invoice-api. No floats anywhere in this file, on purpose.

/**
 * Splits `totalMinor` across `weights` so the parts sum exactly to the total.
 * The remainder from integer division goes to the largest weights first (ties: earliest),
 * which keeps ledger entries balanced when fees are split across line items.
 */
export function allocate(totalMinor: bigint, weights: readonly bigint[]): bigint[] {
  const sum = weights.reduce((a, b) => a + b, 0n);
  if (sum === 0n) throw new Error('allocate: weights sum to zero');
  const parts = weights.map((w) => (totalMinor * w) / sum);
  let remainder = totalMinor - parts.reduce((a, b) => a + b, 0n);
  const order = weights.map((w, i) => ({ w, i })).sort((a, b) => (b.w > a.w ? 1 : b.w < a.w ? -1 : a.i - b.i));
  for (let k = 0; remainder > 0n; k = (k + 1) % order.length, remainder--) parts[order[k].i] += 1n;
  return parts;
}

/** ISO 4217 exponents that are not 2. Everything else has two decimals. */
export const EXPONENTS: Readonly<Record<string, number>> = { JPY: 0, KRW: 0, KWD: 3, BHD: 3 };
