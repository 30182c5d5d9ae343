/**
 * One error hierarchy (domain/errors.ts): every error class of src/ extends ShipperError, so that
 * its code, through the one table, gives its exit code and its ProblemDetail. Found by reading the
 * sources: a class whose ancestry reaches one of JavaScript's own errors is an error class.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SRC, sourceFiles } from '../helpers/sourceFiles.js';

const BUILTIN_ERRORS = new Set(['Error', 'TypeError', 'RangeError', 'SyntaxError', 'ReferenceError', 'EvalError', 'URIError', 'AggregateError']);

/** Every `class X extends Y` of src/: X's parent and where X is declared. */
function classes(): Map<string, { parent: string; file: string }> {
  const found = new Map<string, { parent: string; file: string }>();
  for (const file of sourceFiles(SRC)) {
    for (const match of readFileSync(file, 'utf8').matchAll(/\bclass\s+(\w+)(?:<[^>{]*>)?\s+extends\s+([\w.]+)/g)) {
      found.set(match[1]!, { parent: match[2]!, file: relative(SRC, file) });
    }
  }
  return found;
}

function ancestry(name: string, all: Map<string, { parent: string }>): string[] {
  const chain: string[] = [];
  for (let current = all.get(name)?.parent; current !== undefined; current = all.get(current)?.parent) chain.push(current);
  return chain;
}

describe('the error hierarchy', () => {
  const all = classes();
  const errorClasses = [...all.keys()].filter((name) => ancestry(name, all).some((parent) => BUILTIN_ERRORS.has(parent)));

  it('finds the error classes it should (the walk is real)', () => {
    expect(errorClasses).toEqual(expect.arrayContaining(['ShipperError', 'ProblemError', 'StoreError', 'LockError', 'FileWriteError', 'ImportRejectedError', 'InvoiceError']));
    expect(errorClasses.length).toBeGreaterThanOrEqual(20);
  });

  it('has every error class of src/ extend ShipperError', () => {
    const outside = errorClasses.filter((name) => name !== 'ShipperError' && !ancestry(name, all).includes('ShipperError'));
    expect(outside.map((name) => `${name} (${all.get(name)!.file})`)).toEqual([]);
  });

  it('has ShipperError in the pure domain, where every layer may import it', () => {
    expect(all.get('ShipperError')).toEqual({ parent: 'Error', file: join('domain', 'errors.ts') });
  });
});
