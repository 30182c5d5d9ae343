/**
 * The one table (domain/errors.ts ERRORS): every code has an exit code that `shipper help
 * exit-codes` explains, and a ProblemDetail that never shows a 5xx's detail to an HTTP client;
 * each error class gives the verdict of its row; and a few of them end the CLI as they should.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { CliError, ProblemError, RemoteError, UsageError } from '../../src/api/problems.js';
import { BillFileError } from '../../src/audit/readBills.js';
import { BolTemplateError } from '../../src/bol/template.js';
import { ConfigError } from '../../src/config/settings.js';
import { StoreLocationError } from '../../src/config/storeLocation.js';
import { ERRORS, ExitCode, ShipperError, type ErrorCode } from '../../src/domain/errors.js';
import { InvoiceError } from '../../src/domain/invoice.js';
import { FileWriteError } from '../../src/fs/durableWrite.js';
import { ImportFileError } from '../../src/import/csvFile.js';
import { ImportCancelledError, ImportInterruptedError, ImportRejectedError, type ImportSummary } from '../../src/import/importer.js';
import { LabelError } from '../../src/labels/layout.js';
import { LockError, StoreBusyError } from '../../src/store/file/storeLock.js';
import { SchemaMismatch } from '../../src/store/postgres/migrations.js';
import { StoreError, StoreUnavailableError } from '../../src/store/storeError.js';
import { tempDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inProcess.js';

const summary: ImportSummary = {
  file: 'orders.csv',
  dryRun: false,
  rows: 3,
  shipments: 2,
  booked: 1,
  alreadyBooked: 0,
  valid: 2,
  rejectedShipments: 1,
  rejectedRows: 1,
  totalPriceInCents: 10_000,
  rejectsFile: null,
  violations: [{ line: 3, column: 'poundsWeight', field: 'orderComponents[0].poundsWeight', message: 'must be a number' }],
  moreViolations: 0,
  warnings: {},
};

describe('the table of error codes', () => {
  const rows = Object.entries(ERRORS) as Array<[ErrorCode, (typeof ERRORS)[ErrorCode]]>;

  it('gives every code an exit code that shipper help exit-codes explains', () => {
    const documented = new Set<number>(Object.values(ExitCode));
    for (const [code, row] of rows) expect({ code, documented: documented.has(row.exit) }).toEqual({ code, documented: true });
  });

  it('gives every code a ProblemDetail: an error status, a kebab-case type and a title', () => {
    for (const [code, row] of rows) {
      expect(row.status, code).toBeGreaterThanOrEqual(400);
      expect(row.status, code).toBeLessThan(600);
      expect(row.type, code).toMatch(/^[a-z]+(-[a-z]+)*$/);
      expect(row.title, code).not.toBe('');
    }
  });

  it('keeps the detail of every 5xx out of HTTP answers (a public detail instead)', () => {
    for (const [code, row] of rows.filter(([, row]) => row.status >= 500)) expect(row, code).toHaveProperty('publicDetail');
  });
});

describe('each error class', () => {
  /** code, exit code, ProblemDetail status and type of an error. */
  const verdict = (error: ShipperError) => ({
    code: error.code,
    exit: error.exitCode(),
    status: error.problem.status,
    type: error.problem.type.replace('urn:shipper:problem:', ''),
  });

  it('gives the verdict of its row', () => {
    const cases: Array<[ShipperError, ReturnType<typeof verdict>]> = [
      [new UsageError('no file given'), { code: 'USAGE', exit: 2, status: 400, type: 'usage' }],
      [new ConfigError('SHIPPER_NOW=x is not an ISO-8601 instant'), { code: 'CONFIG', exit: 2, status: 400, type: 'usage' }],
      [new StoreLocationError('the store x is not a valid PostgreSQL URL'), { code: 'CONFIG', exit: 2, status: 400, type: 'usage' }],
      [new ImportFileError('orders.csv: no such file', 'usage'), { code: 'INPUT_FILE', exit: 2, status: 400, type: 'usage' }],
      [new ImportFileError('orders.csv line 1: no header'), { code: 'BAD_CSV', exit: 1, status: 400, type: 'bad-csv' }],
      [new BillFileError('bills.csv: no such file', 'usage'), { code: 'INPUT_FILE', exit: 2, status: 400, type: 'usage' }],
      [new BillFileError('bills.csv is empty', 'rejected'), { code: 'BAD_BILL_FILE', exit: 1, status: 400, type: 'bad-bill-file' }],
      [new ImportRejectedError(summary), { code: 'IMPORT_REJECTED', exit: 1, status: 400, type: 'constraint-violation' }],
      [new ImportCancelledError(undefined), { code: 'IMPORT_CANCELLED', exit: 130, status: 499, type: 'import-cancelled' }],
      [new ImportInterruptedError('stopped', summary), { code: 'IMPORT_INTERRUPTED', exit: 1, status: 409, type: 'import-interrupted' }],
      [new LabelError('cancelled: no labels'), { code: 'LABEL', exit: 1, status: 409, type: 'conflict' }],
      [new InvoiceError('cancelled: no invoice'), { code: 'INVOICE', exit: 1, status: 409, type: 'conflict' }],
      [new RemoteError('the server is down'), { code: 'REMOTE_FAILURE', exit: 3, status: 502, type: 'remote-failure' }],
      [new StoreError('cannot read /s/shipments/a.json'), { code: 'STORE_FAILURE', exit: 5, status: 500, type: 'store-failure' }],
      [new LockError('cannot lock the store', '/s/locks/a.lock'), { code: 'STORE_LOCK', exit: 5, status: 500, type: 'store-failure' }],
      [new StoreBusyError('the store is busy', '/s/locks/a.lock'), { code: 'STORE_BUSY', exit: 5, status: 503, type: 'store-busy' }],
      [new StoreUnavailableError('the database is down'), { code: 'STORE_UNAVAILABLE', exit: 5, status: 503, type: 'store-unavailable' }],
      [new SchemaMismatch('newer schema', { current: 9, latest: 1, applied: [], pending: [] }), { code: 'STORE_UNAVAILABLE', exit: 5, status: 503, type: 'store-unavailable' }],
      [new FileWriteError('/out/a.pdf', 'ENOSPC', 'no space left on the disk'), { code: 'FILE_WRITE', exit: 5, status: 500, type: 'file-write' }],
      [new BolTemplateError('BOL template /t/x.json is invalid'), { code: 'BAD_TEMPLATE', exit: 5, status: 500, type: 'bad-template' }],
      [new CliError('2 checks fail'), { code: 'REJECTED', exit: 1, status: 400, type: 'failure' }],
      [new CliError('1 of 3 bills disputed', 'DISPUTED'), { code: 'DISPUTED', exit: 6, status: 400, type: 'failure' }],
      [new CliError('cancelled', 'INTERRUPTED'), { code: 'INTERRUPTED', exit: 130, status: 499, type: 'interrupted' }],
    ];
    for (const [error, expected] of cases) expect({ name: error.name, ...verdict(error) }).toEqual({ name: error.name, ...expected });
  });

  it('keeps what only the operator may see out of the problem an HTTP client gets, and shows it to the CLI', () => {
    const error = new StoreError('cannot read /srv/store/shipments/sh_1.json: EACCES');
    expect(JSON.stringify(error.problem)).not.toContain('/srv');
    expect(error.toProblem().detail).toBe('cannot read /srv/store/shipments/sh_1.json: EACCES');
    const answered = ProblemError.of(error);
    expect(answered.problem).toEqual(error.problem);
    expect(answered.internalDetail).toBe(error.message);
    expect(answered.exitCode()).toBe(5);
  });

  it('gives a ProblemError the exit code of its status; a 5xx of a server is the server failing (3)', () => {
    const problem = (status: number, type = 'x') => ({ type: `urn:shipper:problem:${type}`, title: 'T', status, detail: 'd' });
    expect(new ProblemError(problem(404, 'not-found')).code).toBe('NOT_FOUND');
    expect(new ProblemError(problem(400)).exitCode()).toBe(1);
    expect(new ProblemError(problem(422)).exitCode()).toBe(1);
    expect(new ProblemError(problem(404)).exitCode()).toBe(4);
    expect(ProblemError.fromAnswer(problem(401)).exitCode()).toBe(3);
    expect(ProblemError.fromAnswer(problem(429)).exitCode()).toBe(3);
    expect(new ProblemError(problem(499)).exitCode()).toBe(130);
    expect(new ProblemError(problem(500)).exitCode()).toBe(5);
    expect(ProblemError.fromAnswer(problem(500)).exitCode()).toBe(3);
    expect(ProblemError.fromAnswer(problem(503)).exitCode()).toBe(3);
  });

  it('lets an interrupted import take the verdict of its cause, with its own message and the violations so far', () => {
    const byStore = new ImportInterruptedError('the import stopped after 1 shipment (disk full)', summary, new StoreError('disk full'));
    expect(byStore.exitCode()).toBe(5);
    expect(byStore.toProblem()).toMatchObject({ type: 'urn:shipper:problem:store-failure', status: 500, detail: byStore.message, violations: summary.violations });
    expect(new ImportInterruptedError('stopped', summary, new RemoteError('down')).exitCode()).toBe(3);
    expect(new ImportInterruptedError('stopped', summary, new Error('a bug')).exitCode()).toBe(1);
  });

  it('lets a command say another error in its own words, with that error’s verdict', () => {
    const error = new CliError('booked, but its BOL was not printed: cannot write a.pdf', new FileWriteError('a.pdf', 'EACCES', 'permission denied'));
    expect(error.code).toBe('FILE_WRITE');
    expect(error.exitCode()).toBe(5);
    expect(error.toProblem()).toMatchObject({ type: 'urn:shipper:problem:file-write', detail: error.message });
  });
});

describe('the CLI ends with the verdict of the table', () => {
  it('exits 2 on a setting that cannot be used, with one line and a usage ProblemDetail', async () => {
    const result = await runInProcess(['quote', 'list', '--json'], { env: { SHIPPER_NOW: 'yesterday-ish' } });
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toEqual(['shipper: SHIPPER_NOW=yesterday-ish is not an ISO-8601 instant']);
    expect(JSON.parse(result.stdout)).toMatchObject({ type: 'urn:shipper:problem:usage', status: 400 });
  });

  it('exits 2 on a missing input file, 1 on an unusable one', async () => {
    const { dir, cleanup } = await tempDir();
    onTestFinished(cleanup);
    const missing = await runInProcess(['--store', join(dir, 'store'), 'import', join(dir, 'missing.csv')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('missing.csv: no such file');
    const empty = join(dir, 'bills.csv');
    await writeFile(empty, '');
    const audit = await runInProcess(['--store', join(dir, 'store'), 'audit', empty, '--json']);
    expect(audit.code).toBe(1);
    expect(audit.stderr.trim().split('\n')).toHaveLength(1);
    expect(audit.stderr).toContain('nothing was audited');
    expect(JSON.parse(audit.stdout)).toMatchObject({ type: 'urn:shipper:problem:bad-bill-file', status: 400 });
  });

  it('exits 5 on a store that cannot be used, naming it, without a stack trace', async () => {
    const { dir, cleanup } = await tempDir();
    onTestFinished(cleanup);
    const notADirectory = join(dir, 'store');
    await writeFile(notADirectory, 'a file where the store should be');
    const result = await runInProcess(['--store', notADirectory, 'shipment', 'list', '--json']);
    expect(result.code).toBe(5);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(JSON.parse(result.stdout)).toMatchObject({ status: 500 });
  });
});
