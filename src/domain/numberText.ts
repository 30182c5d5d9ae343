/**
 * One number syntax everywhere a person writes a number (CSV cells, `-c` specs, the wizard,
 * numeric flags and settings): decimal digits with an optional sign, decimal point and exponent.
 * JavaScript's Number() also reads `0x1F4` (500), `0b101`, `0o17`, `Infinity` and a blank (0):
 * none of those is a weight a shipper means, so none is a number here. Pure.
 */
export const DECIMAL_NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** The number a decimal text writes (surrounding blanks ignored), or undefined when it is not one or is not finite. */
export function decimalNumber(text: string): number | undefined {
  const trimmed = text.trim();
  if (!DECIMAL_NUMBER.test(trimmed)) return undefined;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : undefined;
}

/**
 * Whole digits with a comma every three from the right ("1234567" -> "1,234,567"), as
 * `digits.replace(/\B(?=(\d{3})+$)/g, ',')` writes them, for text of digits only (anything else
 * goes through that regex). Without it: the regex's look-ahead rescans to the end at every digit,
 * for every number of every warning.
 */
export function groupedDigits(digits: string): string {
  if (!onlyDigits(digits)) return digits.replace(/\B(?=(\d{3})+$)/g, ',');
  const length = digits.length;
  if (length <= 3) return digits;
  const head = length % 3 || 3;
  let grouped = digits.slice(0, head);
  for (let at = head; at < length; at += 3) grouped += `,${digits.slice(at, at + 3)}`;
  return grouped;
}

function onlyDigits(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 48 || code > 57) return false;
  }
  return true;
}
