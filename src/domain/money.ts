/** Dollars as people type them ($1,250.50, 1250.5, 1250) to whole cents. Pure. */
export type DollarsReading = { cents: number } | { problem: string };

export function parseDollars(text: string): DollarsReading {
  const cleaned = text
    .trim()
    .replace(/^\$\s*/, '')
    .replace(/,(?=\d{3}(\D|$))/g, '');
  if (!/^\d+(\.\d{1,2})?$/.test(cleaned)) return { problem: `"${text.trim()}" is not an amount in dollars, e.g. 1250 or 1,250.50` };
  const [whole, fraction = ''] = cleaned.split('.');
  return { cents: Number(whole) * 100 + Number(fraction.padEnd(2, '0')) };
}

/** Cents as dollars with 2 decimals, for CSV files accountants read: `1250.50`, `-80.20`, `0.00` (never `1250.5`). */
export function dollarsText(cents: number): string {
  return (cents / 100).toFixed(2);
}
