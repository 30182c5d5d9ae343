/**
 * Files the user names that are not regular files (issue 39, item 9): an agreement file that was a
 * named pipe hung `tariff check` and every quote priced by agreements (a plain open of a FIFO waits
 * for a writer that never comes). Every such file is refused before a byte is read: agreement
 * files, the tariff, the diesel CSV, status files, bill files, the import CSV. Spawned CLIs: a
 * process blocked on a FIFO is killed by runCli's hang catcher rather than the test's worker.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, symlinkSync, unlinkSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRegularText } from '../../src/fs/regularFile.js';
import { ROOT, runCli } from '../helpers/cli.js';

let dir: string;
const HANG_CATCHER = { timeoutMs: 120_000 };
const shipper = (args: string[]) => runCli(['--store', join(dir, 'store'), ...args], { ...HANG_CATCHER, env: { SHIPPER_NOW: '2026-11-30T15:00:00Z' } });
const mkfifo = (path: string) => execFileSync('mkfifo', [path]);

/** The shipped samples copied, with `file` of `agreement` replaced by a FIFO (or a symbolic link to `target`). */
function samplesWith(name: string, agreement: string, file: string, target?: string): string {
  const root = join(dir, name);
  cpSync(join(ROOT, 'templates', 'agreements'), root, { recursive: true });
  unlinkSync(join(root, agreement, file));
  if (target) symlinkSync(target, join(root, agreement, file));
  else mkfifo(join(root, agreement, file));
  return root;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'shipper-not-regular-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('agreement files that are not regular files', () => {
  it('tariff check refuses a FIFO transit.csv with its file and line (it hung), and still lists the other agreements', async () => {
    const root = samplesWith('fifo', 'saml', 'transit.csv');
    const result = await shipper(['tariff', 'check', root]);
    expect(result.stderr).toContain('shipper: saml/transit.csv:1: is a named pipe (FIFO), not a regular file: refused');
    expect(result.stderr).toContain('1 fault in the agreements of');
    expect(result.stdout).toContain('splx: SPLX Sample Plains Express');
    expect(result.code).toBe(5);
  });

  it('a quote priced by agreements is refused with the fault, not hung', async () => {
    const root = samplesWith('fifo-quote', 'scfr', 'agreement.json');
    const result = await shipper(['--tariffs', root, 'quote', '--from', '60601', '--to', '30301', '-c', 'pallets=1,weight=500,dims=48x40x50', '--carrier', 'all']);
    expect(result.stderr).toContain('scfr/agreement.json:1: is a named pipe (FIFO), not a regular file: refused');
    expect(result.stderr).not.toMatch(/unexpected error|\n\s+at /);
    expect(result.code).not.toBe(0);
  });

  it('a symbolic link to /dev/zero is refused as a character device, without reading it', async () => {
    const root = samplesWith('zero', 'scfr', 'fuel.json', '/dev/zero');
    const result = await shipper(['tariff', 'check', root]);
    expect(result.stderr).toContain('scfr/fuel.json:1: is a character device, not a regular file: refused');
    expect(result.code).toBe(5);
  });

  it('a symbolic link to a regular file is read as the file (the default path)', async () => {
    const root = samplesWith('link', 'saml', 'transit.csv', join(ROOT, 'templates', 'agreements', 'saml', 'transit.csv'));
    const result = await shipper(['tariff', 'check', root]);
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('3 agreements OK');
    expect(result.code).toBe(0);
  });
});

describe('other files the user names', () => {
  it('refuses a FIFO as the tariff, the diesel CSV, a status file, a bill file and an import CSV: exit 2, one line naming it', async () => {
    const fifo = join(dir, 'pipe');
    mkfifo(fifo);
    const cases: Array<{ args: string[]; message: string }> = [
      {
        args: ['--tariff', fifo, 'quote', '--from', '60601', '--to', '30301', '-c', 'pallets=1,weight=500,dims=48x40x50'],
        message: `cannot read the tariff ${fifo}: it is a named pipe (FIFO), not a regular file`,
      },
      { args: ['fuel', 'import', fifo], message: `${fifo} is a named pipe (FIFO), not a regular file: refused` },
      { args: ['track', 'import', fifo], message: `${fifo} is a named pipe (FIFO), not a regular file: refused` },
      { args: ['audit', fifo], message: `${fifo} is not a regular file (a named pipe, a socket or a device)` },
      { args: ['import', fifo], message: `${fifo} is not a regular file (a named pipe, a socket or a device)` },
    ];
    for (const { args, message } of cases) {
      const result = await shipper(args);
      expect(result.stderr, args.join(' ')).toContain(message);
      expect(
        result.stderr
          .trim()
          .split('\n')
          .filter((line) => !line.startsWith('warning:')),
        args.join(' '),
      ).toHaveLength(1);
      expect(result.code, args.join(' ')).toBe(args[0] === '--tariff' ? 5 : 2);
    }
  });

  it('readRegularText reads a regular file whole, and names what a directory is', async () => {
    const file = join(dir, 'plain.txt');
    await writeFile(file, 'x'.repeat(100_000));
    expect(await readRegularText(file)).toHaveLength(100_000);
    await expect(readRegularText(dir)).rejects.toThrow(`${dir} is a directory, not a regular file: refused`);
    await expect(readRegularText(join(dir, 'missing'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
