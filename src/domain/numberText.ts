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
