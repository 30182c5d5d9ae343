/**
 * The one table (domain/errors.ts ERRORS): every code has an exit code that `shipper help
 * exit-codes` explains, and a ProblemDetail that never shows a 5xx's detail to an HTTP client;
 * each error class gives the verdict of its row; and every command ends with the exit code the
 * table gives its failure (the one table that `shipper help exit-codes` and the README print).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
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
import { HELP_TOPICS } from '../../src/cli/commands/helpTopics.js';
import { buildProgram } from '../../src/cli/program.js';
import { EXIT_CODE_MEANINGS, exitCodesHelp } from '../../src/cli/topics/exitCodes.js';
import { ROOT, tempDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inProcess.js';

const summary: ImportSummary = {
  file: 'orders.csv',
  dryRun: false,
  rows: 3,
  shipments: 2,
  booked: 1,
  alreadyBooked: 0,
  confirmed: 0,
  initialized: 0,
  valid: 2,
  rejectedShipments: 1,
  rejectedRows: 1,
  totalPriceInCents: 10_000,
  rejectsFile: null,
  violations: [{ line: 3, column: 'poundsWeight', field: 'orderComponents[0].poundsWeight', reason: 'must be a number' }],
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
      [new CliError('no carrier prices this shipment', 'NO_COVERAGE'), { code: 'NO_COVERAGE', exit: 1, status: 422, type: 'no-coverage' }],
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

/**
 * Every command held to the one table: for each, failures of the kinds it can meet, and the exit
 * code `shipper help exit-codes` and the README give that kind. A command added without a line
 * here fails the first test. `{store}`-free: each case runs on one store with one booked shipment;
 * `{id}` is its id, `{dir}` a directory holding `exists.pdf`, `empty.csv` and nothing else.
 */
const EVERY_COMMAND: ReadonlyArray<[command: string, kind: keyof typeof ExitCode, args: readonly string[]]> = [
  ['quote', 'usage', ['quote', '--from', '60601', '--to', '10001', '-c', 'pallets=1,weight=500,dims=48x40x48', '--nonsense']],
  ['quote', 'rejected', ['quote', '--from', '60601', '--to', '10001', '-c', 'pallets=1,weight=0,dims=48x40x48']],
  ['quote', 'notFound', ['quote', 'get', 'qt_01JD3Y7T9Q2W5E8R1T4Y7U0I3Z']],
  // Rate shopping that prices nothing (no carrier serves the lane) is a failure, not an empty success.
  ['quote', 'rejected', ['--tariffs', 'samples', 'quote', '--from', '33101', '--to', '10001', '-c', 'pallets=1,weight=800,dims=48x40x48', '--carrier', 'all']],
  ['transit', 'usage', ['transit', '--from', '60601']],
  ['transit', 'rejected', ['transit', '--from', '60601', '--to', '00000']],
  // A directory named on the command line that is not there is usage; faults in one are the tariff's (5).
  ['tariff', 'usage', ['tariff', 'check', '{dir}/no-such-agreements']],
  ['fuel', 'usage', ['fuel', 'import', '{dir}/missing.csv']],
  ['fuel', 'usage', ['fuel', 'show', '--carrier', 'ODFL']],
  ['ship', 'notFound', ['ship', '--quote', 'qt_01JD3Y7T9Q2W5E8R1T4Y7U0I3Z', '--shipper', 'x', '--consignee', 'y']],
  ['shipment', 'notFound', ['shipment', 'get', 'SO-999999']],
  ['shipment', 'local', ['--store', '{dir}/exists.pdf', 'shipment', 'list']],
  // The README's "import nosuchfile.csv": a file named on the command line that is not there is a usage error.
  ['import', 'usage', ['import', '{dir}/nosuchfile.csv']],
  ['import', 'rejected', ['import', '{dir}/empty.csv']],
  ['check', 'usage', ['check', '{dir}/nosuchfile.csv']],
  ['location', 'notFound', ['location', 'show', 'nosuch']],
  // An output file that exists, without --force: a usage error for every command that writes one.
  ['bol', 'usage', ['bol', '{id}', '-o', '{dir}/exists.pdf']],
  // Nothing listens on port 1 of the loopback: the printer refuses the connection.
  ['labels', 'printing', ['labels', '{id}', '--print', '--printer', 'tcp://127.0.0.1:1']],
  ['printer', 'notFound', ['printer', 'remove', 'nosuch']],
  ['labels', 'usage', ['labels', '{id}', '-o', '{dir}/exists.pdf']],
  ['tender', 'usage', ['tender', '{id}', '--format', 'ebol', '-o', '{dir}/exists.pdf']],
  ['invoice', 'usage', ['invoice', '{id}', '-o', '{dir}/exists.pdf']],
  ['track', 'notFound', ['track', 'SO-999999']],
  ['track', 'usage', ['track', 'import', '{dir}/missing.edi']],
  ['audit', 'usage', ['audit', '{dir}/missing.csv']],
  ['audit', 'rejected', ['audit', '{dir}/empty.csv']],
  ['report', 'usage', ['report', 'spend', '--by', 'nonsense']],
  ['serve', 'usage', ['serve', '--port', 'x']],
  ['mcp', 'usage', ['mcp', '--root', '{dir}/no-such-directory']],
  ['db', 'usage', ['db', 'status']],
  ['credentials', 'notFound', ['credentials', 'revoke', 'nosuch']],
  // No secret on standard input, in the environment or at a prompt (no terminal): the command line is incomplete.
  ['auth', 'usage', ['auth', 'login', '--client-id', 'x']],
  ['store', 'usage', ['store', 'import', '{dir}/missing.jsonl']],
  ['openapi', 'usage', ['openapi', '--nonsense']],
  ['config', 'usage', ['config', 'set', 'nosuchkey', '1']],
  ['completion', 'usage', ['completion', 'tcsh']],
  ['help', 'usage', ['help', 'nonsense']],
  ['help', 'ok', ['help', 'exit-codes']],
];

describe('every command keeps to the one table of exit codes', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let id: string;

  beforeAll(async () => {
    ({ dir, cleanup } = await tempDir());
    await writeFile(join(dir, 'exists.pdf'), 'a file somebody keeps');
    await writeFile(join(dir, 'empty.csv'), '');
    const booked = await runInProcess([
      '--store',
      join(dir, 'store'),
      '-q',
      'ship',
      '--from',
      '60608',
      '--to',
      '10001',
      '-c',
      'pallets=1,weight=500,dims=48x40x48,desc=Parts',
      '--shipper',
      'name=Acme,address1=1 Main St,city=Chicago,state=IL,zip=60608,contact=Dana Ruiz,phone=312-555-0100',
      '--consignee',
      'name=Beta,address1=5 Broadway,city=New York,state=NY,zip=10001,contact=Lee Chen,phone=212-555-0142',
    ]);
    expect(booked.code, booked.stderr).toBe(0);
    id = booked.stdout.trim();
  });
  afterAll(async () => cleanup());

  it('has a case for every command of the program', async () => {
    const streams = { stdout: new PassThrough(), stderr: new PassThrough(), stdin: new PassThrough() };
    const program = await buildProgram(streams, {}, []);
    const hidden = new Set([...HELP_TOPICS.map((topic) => topic.name), '__reference', '__complete']);
    const commands = program.commands.map((command) => command.name()).filter((name) => !hidden.has(name));
    expect(commands.length).toBeGreaterThan(20);
    expect(new Set(EVERY_COMMAND.map(([command]) => command))).toEqual(new Set([...commands, 'help']));
  });

  it.each(EVERY_COMMAND)('%s exits with the code of "%s"', async (_command, kind, args) => {
    const argv = args.map((arg) => arg.replace('{dir}', dir).replace('{id}', id));
    const result = await runInProcess(argv[0] === '--store' ? argv : ['--store', join(dir, 'store'), ...argv]);
    expect(result.code, result.stderr).toBe(ExitCode[kind]);
    // A failure says what it is in one line at the end of stderr, never a stack trace.
    if (kind !== 'ok') expect(result.stderr).toMatch(/shipper: .+\n$/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('says "unknown help topic" in one line for a word that is no topic and no command, with the closest name', async () => {
    const result = await runInProcess(['help', 'exitcodes']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      'shipper: no help topic or command "exitcodes" (did you mean exit-codes?) (topics: environment, exit-codes, csv-columns, settings, formats, warnings; commands: shipper --help)\n',
    );
    // A command's help and a topic are still help (exit 0).
    expect((await runInProcess(['help', 'quote'])).code).toBe(0);
  });

  it('lists the codes in order in help exit-codes, and the README lists the same codes in that order', async () => {
    const listed = [...exitCodesHelp(200).matchAll(/^ {2}(\d+) {2,}/gm)].map((match) => Number(match[1]));
    expect(listed).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 130]);
    expect(listed).toEqual(Object.values(ExitCode));
    expect(Object.keys(EXIT_CODE_MEANINGS)).toEqual(Object.keys(ExitCode));
    const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
    const table = readme.slice(readme.indexOf('## Exit codes'), readme.indexOf('## Documentation'));
    expect([...table.matchAll(/^\| (\d+) \|/gm)].map((match) => Number(match[1]))).toEqual(listed);
    // What the README says a missing input file and an existing output file are: usage (2), as the cases above.
    expect(table).toMatch(/\| 2 \| usage error:[^\n]*a file named on the command line that does not exist[^\n]*an output file that exists without `--force`/);
    expect(exitCodesHelp(1000)).toMatch(/2 +usage error:[^\n]*a file named on the command line that does not exist[^\n]*an output file that exists without --force/);
  });
});
