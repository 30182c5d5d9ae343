/**
 * The `key=value,key=value` specs of --component, --shipper and --consignee. Splits on commas that
 * start a new `key=`, so a description or a street may itself contain commas; "..." or '...' quote
 * a value.
 */
import { UsageError } from './errors.js';

export function splitKeyValuePairs(spec: string, flag: string): string[] {
  const pairs: string[] = [];
  let current = '';
  let quote: string | null = null;
  for (let i = 0; i < spec.length; i++) {
    const char = spec[i]!;
    if (quote) {
      if (char === quote) quote = null;
      else current += char;
      continue;
    }
    if ((char === '"' || char === "'") && /=\s*$/.test(current)) {
      quote = char;
      continue;
    }
    if (char === ',' && /^\s*[A-Za-z][A-Za-z0-9]*\s*=/.test(spec.slice(i + 1))) {
      pairs.push(current);
      current = '';
      continue;
    }
    current += char;
  }
  if (quote) throw new UsageError(`unclosed ${quote} in ${flag} ${spec}`);
  pairs.push(current);
  return pairs.filter((pair) => pair.trim() !== '');
}
