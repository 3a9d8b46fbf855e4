// How the Finder writes its figures: counts with thousands separators ("312 of 1,000 tracks") and
// dollars with cents.
const count = new Intl.NumberFormat('en-US');
const dollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

export const formatCount = (n: number) => count.format(n);
export const formatUsd = (n: number) => dollars.format(n);
/** A share or fee (0.45 → "45%"). */
export const formatShare = (n: number) =>
  `${(n * 100).toLocaleString('en-US', { maximumFractionDigits: 2 })}%`;
/** A rate per play has four decimals in the published tables ($0.0025). */
export const formatRate = (n: number) =>
  `$${n.toLocaleString('en-US', { minimumFractionDigits: 4, maximumFractionDigits: 6 })}`;
