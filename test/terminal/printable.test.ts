import { describe, expect, it } from 'vitest';
import { jsonSyntaxProblem, printable, printableLine, printableRecord } from '../../src/printable.js';
import { IO } from '../../src/cli/output.js';
import { PassThrough } from 'node:stream';

describe('printable', () => {
  it('shows every control character as an escape and keeps newlines, tabs and ordinary Unicode', () => {
    expect(printable('\u001b[2J\u001b]0;pwned\u0007')).toBe('\\x1B[2J\\x1B]0;pwned\\x07');
    expect(printable('a\rb\u0000c\u007fd\u0085e\u009bf')).toBe('a\\x0Db\\x00c\\x7Fd\\x85e\\x9Bf');
    expect(printable('abc\u202Edef\u2066')).toBe('abc\\u202Edef\\u2066');
    expect(printable('line 1\n\tline 2: Müller GmbH, Société, ½ pallet, 日本, 🚚')).toBe('line 1\n\tline 2: Müller GmbH, Société, ½ pallet, 日本, 🚚');
    expect(printable('')).toBe('');
    // Boundaries of the ranges: U+001F in, U+0020 out; U+009F in, U+00A0 out; U+2029 out, U+202A in.
    expect(printable('\u001f\u0020\u009f\u00a0\u2029\u202a')).toBe('\\x1F \\x9F\u00a0\u2029\\u202A');
  });

  it('the IO layer sends no control character of a message to stderr', () => {
    let stderr = '';
    const err = Object.assign(new PassThrough(), { isTTY: false });
    err.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const io = new IO({ stdout: new PassThrough(), stderr: err, stdin: new PassThrough() }, { json: false, color: false, quiet: false }, {});
    io.error('store file /s/\u001b[31mx.json is damaged');
    io.warn({ code: 'TEST', message: '\u009b2J' });
    io.note('\u0007bell');
    err.end();
    expect(stderr).toBe('shipper: store file /s/\\x1B[31mx.json is damaged\nwarning: [TEST] \\x9B2J\n\\x07bell\n');
  });
});

describe('jsonSyntaxProblem', () => {
  const problemOf = (text: string) => {
    try {
      JSON.parse(text);
    } catch (error) {
      return jsonSyntaxProblem(error, text);
    }
    throw new Error('parsed');
  };

  it('says why without quoting the text', () => {
    expect(problemOf('\u001b[2J{"a":1}')).toBe('not valid JSON');
    expect(problemOf('{"a": 1')).toMatch(/^not valid JSON/);
    expect(problemOf('{"a": ')).toBe('not valid JSON: it ends too early (cut off?)');
    expect(problemOf('{"a": 1,')).toBe('not valid JSON at byte 8');
    expect(problemOf('')).toBe('it is empty');
    expect(problemOf('  \n')).toBe('it is empty');
    expect(problemOf('\u0000\u0000\u0000')).toBe('it holds binary data (NUL bytes), not JSON');
    expect(problemOf('{"a":1} trailing')).toBe('not valid JSON at byte 8');
  });
});

describe('printableRecord (issue 20, item 4: records on their way to a table)', () => {
  it('escapes every control character of every string, line breaks included, and keeps the rest', () => {
    expect(printableLine('A\tB\nC\rD\u001b[2J')).toBe('A\\x09B\\x0AC\\x0DD\\x1B[2J');
    const record = { id: 'qt_1', amount: 1200, nested: [{ description: 'Bolts\u0007' }, { description: null }], ok: true };
    expect(printableRecord(record)).toEqual({ id: 'qt_1', amount: 1200, nested: [{ description: 'Bolts\\x07' }, { description: null }], ok: true });
    // A copy: the record itself is left as it was.
    expect(record.nested[0]!.description).toBe('Bolts\u0007');
  });
});
