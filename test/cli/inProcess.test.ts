import { afterAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inProcess.js';

describe('in-process CLI', () => {
  const dirs: Array<() => Promise<void>> = [];
  afterAll(async () => Promise.all(dirs.map((cleanup) => cleanup())));

  it('gives the same output and exit code as the spawned binary', async () => {
    const { dir, cleanup } = await tempDir();
    dirs.push(cleanup);
    const args = ['--store', dir, 'quote', '--from', '60601', '--to', '10001', '-c', 'pallets=2,weight=1200,dims=48x40x48', '--json'];
    const env = { SHIPPER_NOW: '2026-11-23T15:00:00Z' };
    const [inside, spawned] = await Promise.all([runInProcess(args, { env }), runCli(args, { env })]);
    expect(inside.code).toBe(0);
    expect(spawned.code).toBe(0);
    const strip = (text: string) => JSON.parse(text.replace(/qt_[0-9A-Z]{26}/g, 'ID').replace(/\d{4}-\d{2}-\d{2}T[\d:.]+Z/g, 'T')) as unknown;
    expect(strip(inside.stdout)).toEqual(strip(spawned.stdout));
    const bad = await runInProcess(['--store', dir, 'quote', '--from', '60601', '--to', '10001', '-c', 'pallets=0,weight=1,dims=1x1x1']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/palletCount must be at least 1/);
    const usage = await runInProcess(['quote', '--bogus']);
    expect(usage.code).toBe(2);
  });
});
