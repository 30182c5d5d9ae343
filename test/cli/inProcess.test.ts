/**
 * Most CLI tests run main() in process (helpers/inProcess.ts); this one holds them to the built
 * binary: for the same arguments, environment and stdin, bin/shipper.js (a process of its own,
 * the bundle in dist/) and main() in process give the same exit code, stdout and stderr.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, tempDir, type CliResult } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inProcess.js';

const ENV = { SHIPPER_NOW: '2026-11-23T15:00:00Z' };

/** Ids and instants differ between two runs; only the bundle knows its build (help-version.test.ts checks both texts). */
const normalise = (text: string) =>
  text
    .replace(/qt_[0-9A-Z]{26}/g, 'ID')
    .replace(/\d{4}-\d{2}-\d{2}T[\d:.]+Z/g, 'T')
    .replace(/^(\d+\.\d+\.\d+) \(.*\)$/m, '$1 (build)');

describe('in-process CLI', () => {
  const dirs: Array<() => Promise<void>> = [];
  afterAll(async () => Promise.all(dirs.map((cleanup) => cleanup())));

  async function both(args: (store: string) => string[], input?: string): Promise<{ inside: CliResult; spawned: CliResult }> {
    const [a, b] = await Promise.all([tempDir(), tempDir()]);
    dirs.push(a.cleanup, b.cleanup);
    const options = { env: ENV, ...(input === undefined ? {} : { input }) };
    const [inside, spawned] = await Promise.all([runInProcess(args(a.dir), options), runCli(args(b.dir), options)]);
    return { inside, spawned };
  }

  it('gives the same output and exit code as the spawned binary', async () => {
    const { inside, spawned } = await both((store) => ['--store', store, 'quote', '--from', '60601', '--to', '10001', '-c', 'pallets=2,weight=1200,dims=48x40x48', '--json']);
    expect(inside.code).toBe(0);
    expect(spawned.code).toBe(0);
    expect(JSON.parse(normalise(inside.stdout))).toEqual(JSON.parse(normalise(spawned.stdout)));
    expect(inside.stderr).toBe(spawned.stderr);
  });

  it.each([
    ['people output read from stdin', (store: string) => ['--store', store, 'transit', '--from', '60601', '--to', '-', '--days', '2'], '10001\n30301\n', 0],
    ['rejected input (exit 1)', (store: string) => ['--store', store, 'quote', '--from', '60601', '--to', '10001', '-c', 'pallets=0,weight=1,dims=1x1x1'], undefined, 1],
    ['a usage error (exit 2)', (store: string) => ['--store', store, 'quote', '--bogus'], undefined, 2],
    ['a usage error with --json: a ProblemDetail on stdout', (store: string) => ['--store', store, '--json', 'transit', '--fro', '60601'], undefined, 2],
    ['not found (exit 4)', (store: string) => ['--store', store, 'shipment', 'get', 'sh_01JD3Y7T9Q2W5E8R1T4Y7V0H3Z'], undefined, 4],
    ['--version', () => ['--version'], undefined, 0],
  ] as const)('agrees with the spawned binary on %s', async (_name, args, input, code) => {
    const { inside, spawned } = await both(args, input);
    expect(spawned.code, spawned.stderr).toBe(code);
    expect(inside.code, inside.stderr).toBe(code);
    expect(normalise(inside.stdout)).toBe(normalise(spawned.stdout));
    expect(inside.stderr).toBe(spawned.stderr);
    expect(inside.stdout + inside.stderr).not.toBe('');
  });
});
