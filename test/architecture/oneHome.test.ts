/**
 * Small rules with one home (issue 23): a copy written again elsewhere in src/ fails here, naming
 * the home to import instead.
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SRC, sourceFiles } from '../helpers/sourceFiles.js';

const RULES = [
  { rule: 'the ZIP pattern', home: 'domain/zipCode.ts', copy: /\\d\{5\}/ },
  { rule: 'the GS1 company prefix', home: 'domain/bolNumber.ts', copy: /\\d\{7,10\}/ },
  { rule: 'money formatting', home: 'domain/money.ts', copy: /style: 'currency'|\.toLocaleString\('en-US', \{ minimumFractionDigits: 2/ },
  { rule: 'calendar dates', home: 'domain/dates.ts', copy: /toISOString\(\)\.slice\(0, 10\)|getUTCDay\(|toLocaleDateString\(/ },
] as const;

describe('one home for each small rule', () => {
  const files = sourceFiles(SRC).map((path) => ({ name: relative(SRC, path).replaceAll('\\', '/'), text: readFileSync(path, 'utf8') }));

  it.each(RULES)('$rule is written only in $home', ({ home, copy }) => {
    const copies = files.filter(({ name, text }) => name !== home && copy.test(text)).map(({ name }) => name);
    expect(copies).toEqual([]);
    expect(files.find(({ name }) => name === home)?.text).toMatch(copy);
  });
});
