/**
 * `shipper transit` with bad destinations: the good lanes are printed, every bad destination is a
 * row saying why, in its place in the list, and the exit code is 1; --json adds `errors`, --csv an
 * `error` column. No coverage is not bad. Locally and against shipper serve (the CLI drops what
 * the API refuses and asks again).
 */
import { parse } from 'csv-parse/sync';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TransitTable } from '../../src/domain/schemas.js';
import { tempDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inProcess.js';
import { startServe, type ServeProcess } from '../helpers/serve.js';

const NOW = '2026-10-05T15:00:00Z';
/** Real ZIPs spread over the country, repeated to make a 1,000-lane file. */
const GOOD = ['10001', '30301', '94105', '75201', '02108', '98101', '80202', '33101', '55401', '63101'];

let dir: string;
let cleanup: () => Promise<void>;
let bigFile: string;
/** Lines of the big file (1-based, after a header line) that hold the bad destinations. */
const UNKNOWN_LINE = 302;
const NOT_A_ZIP_LINE = 751;

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('shipper-bad-lanes-'));
  const zips = Array.from({ length: 1000 }, (_, index) => GOOD[index % GOOD.length]!);
  zips[UNKNOWN_LINE - 2] = '00000';
  zips[NOT_A_ZIP_LINE - 2] = '6O601'; // a letter O for a zero, as typed
  bigFile = join(dir, 'lanes.txt');
  await writeFile(bigFile, `zip\n${zips.join('\n')}\n`);
});
afterAll(() => cleanup());

const transit = (args: string[], options: { columns?: number; base?: string[] } = {}) =>
  runInProcess([...(options.base ?? ['--store', join(dir, 'store')]), 'transit', '--from', '60601', ...args], {
    env: { SHIPPER_NOW: NOW },
    ...(options.columns ? { columns: options.columns } : {}),
  });

describe('a 1,000-lane file with two bad destinations', () => {
  it('prints the 998 good lanes and a row for each bad one where it was, and exits 1 with one line naming them', async () => {
    const result = await transit(['--to', bigFile]);
    expect(result.code).toBe(1);
    const rows = result.stdout.split('\n').filter((line) => line.startsWith('│'));
    // The head, then one row per destination in the file's order.
    expect(rows).toHaveLength(1 + 1000);
    const body = rows.slice(1);
    expect(body.filter((row) => row.includes('no lane'))).toHaveLength(2);
    expect(body[UNKNOWN_LINE - 2]).toMatch(/│ 00000 \(line 302\)\s+│\s+│ no lane\s+│ unknown ZIP\s+│/);
    expect(body[NOT_A_ZIP_LINE - 2]).toMatch(/│ 6O601 \(line 751\)\s+│\s+│ no lane\s+│ not a ZIP code\s+│/);
    expect(body[0]).toMatch(/10001 New York, NY\s+│ 838\s+│ 3\s+│ Fri 2026-10-09 17:00 EDT/);
    expect(body.at(-1)).toMatch(/63101 Saint Louis, MO/);
    expect(result.stderr).toBe('shipper: 2 of 1,000 destinations got no lane (00000, 6O601): their rows say why\n');
  });

  it('--json: the lanes and an errors list, one document, exit 1', async () => {
    const result = await transit(['--to', bigFile, '--json']);
    expect(result.code).toBe(1);
    const document = JSON.parse(result.stdout) as TransitTable & { errors: unknown[] };
    expect(document.lanes).toHaveLength(998);
    expect(document.lanes[UNKNOWN_LINE - 2]!.destination.zipCode).toBe(GOOD[(UNKNOWN_LINE - 1) % GOOD.length]);
    expect(document.errors).toEqual([
      { field: `destinations[${UNKNOWN_LINE - 2}].zipCode`, zipCode: '00000', source: `${bigFile} line ${UNKNOWN_LINE}`, reason: 'unknown ZIP 00000' },
      { field: `destinations[${NOT_A_ZIP_LINE - 2}].zipCode`, zipCode: '6O601', source: `${bigFile} line ${NOT_A_ZIP_LINE}`, reason: '"6O601" is not a ZIP code' },
    ]);
    expect(result.stderr).toBe('shipper: 2 of 1,000 destinations got no lane (00000, 6O601): the errors list says why\n');
  });

  it('--csv: a row per bad destination with the reason in `error`, in its place', async () => {
    const result = await transit(['--to', bigFile, '--csv']);
    expect(result.code).toBe(1);
    const records = parse(result.stdout, { columns: true }) as Array<Record<string, string>>;
    expect(records).toHaveLength(1000);
    expect(records.filter((record) => record.error !== '')).toEqual([
      expect.objectContaining({ originPostalCode: '60601', destinationPostalCode: '00000', miles: '', transitDays: '', error: `unknown ZIP 00000 at ${bigFile} line 302` }),
      expect.objectContaining({ destinationPostalCode: '6O601', error: `"6O601" is not a ZIP code at ${bigFile} line 751` }),
    ]);
    expect(records[UNKNOWN_LINE - 2]!.destinationPostalCode).toBe('00000');
    expect(records[NOT_A_ZIP_LINE - 2]!.destinationPostalCode).toBe('6O601');
    expect(records[0]).toMatchObject({ destinationPostalCode: '10001', transitDays: '3', error: '' });
    expect(result.stderr).toBe('shipper: 2 of 1,000 destinations got no lane (00000, 6O601): the error column says why\n');
  });
});

describe('edges', () => {
  it('no coverage is not bad: exit 0', async () => {
    const result = await transit(['--to', '10001,99501']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/99501 Anchorage, AK .*no coverage/);
    expect(result.stderr).toBe('');
  });

  it('a typo in a list on the command line: the other lanes, a row for it, exit 1', async () => {
    const result = await transit(['--to', '10001,1000,30301']);
    expect(result.code).toBe(1);
    const rows = result.stdout
      .split('\n')
      .filter((line) => line.startsWith('│'))
      .slice(1);
    expect(rows.map((row) => row.split('│')[2]!.trim())).toEqual(['10001 New York, NY', '1000', '30301 Atlanta, GA']);
    expect(rows[1]).toMatch(/no lane\s+│ not a ZIP code/);
    expect(result.stderr).toBe('shipper: 1 of 3 destinations got no lane (1000): their rows say why\n');
    // Three are named on the line, the rest counted: it stays one short line.
    const many = await transit(['--to', '10001,00000,1,2,3']);
    expect(many.code).toBe(1);
    expect(many.stderr).toBe('shipper: 4 of 5 destinations got no lane (00000, 1, 2 and 1 more): their rows say why\n');
  });

  it('with --days, the bad row stands between the lanes, one line for the destination', async () => {
    const result = await transit(['--to', '10001,00000,30301', '--days', '2']);
    expect(result.code).toBe(1);
    const rows = result.stdout
      .split('\n')
      .filter((line) => line.startsWith('│'))
      .slice(1);
    expect(rows).toHaveLength(2 + 1 + 2);
    expect(rows[2]).toMatch(/00000\s+│\s+│\s+│ no lane\s+│ unknown ZIP\s+│\s+│$/);
  });

  it('every destination bad: nothing to show, the rejection naming each one (exit 1; --json a ProblemDetail)', async () => {
    const text = await transit(['--to', '00000,abc']);
    expect(text).toMatchObject({ code: 1, stdout: '' });
    expect(text.stderr).toBe('shipper: unknown ZIP 00000 (destinations[0].zipCode); "abc" is not a ZIP code (destinations[1].zipCode)\n');
    const json = await transit(['--to', '00000', '--json']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ status: 400, violations: [{ field: 'destinations[0].zipCode', reason: 'unknown ZIP 00000' }] });
  });

  it('a bad origin is still a rejection of the whole request', async () => {
    const result = await runInProcess(['transit', '--from', '00000', '--to', '10001,00001'], { env: { SHIPPER_NOW: NOW } });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^shipper: unknown ZIP 00000 \(origin\.zipCode\)/);
  });

  it('a file without a single ZIP is still a usage error', async () => {
    const file = join(dir, 'words.txt');
    await writeFile(file, 'zip\nfoo\nbar\n');
    const result = await transit(['--to', file]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/no ZIP codes in it/);
  });

  it('fits an 80-column terminal with the bad rows', async () => {
    const result = await transit(['--to', `10001,00000,94105`, '--days', '3'], { columns: 80 });
    for (const line of result.stdout.split('\n')) expect([...line].length).toBeLessThanOrEqual(80);
    expect(result.stdout).toContain('unknown ZIP');
  });
});

describe('against shipper serve', () => {
  let server: ServeProcess;
  beforeAll(async () => {
    server = await startServe({ store: join(dir, 'served'), env: { SHIPPER_NOW: NOW } });
  }, 30_000);
  afterAll(() => server?.stop());

  it('prints the same lanes, rows and exit code as the local engine: the CLI drops what the server refused', async () => {
    const local = await transit(['--to', bigFile, '--json']);
    const remote = await transit(['--to', bigFile, '--json'], { base: ['--base-url', server.url] });
    expect(remote.code).toBe(1);
    expect(JSON.parse(remote.stdout)).toEqual(JSON.parse(local.stdout));
    expect(remote.stderr).toBe(local.stderr);
    // One refused request, then the one that answered: no more.
    const posts = server
      .stderr()
      .split('\n')
      .filter((line) => line.includes('POST /v1/shipper/transit'));
    expect(posts).toHaveLength(2);
    expect(posts[0]).toMatch(/\b400\b/);
    expect(posts[1]).toMatch(/\b200\b/);
  });
});
