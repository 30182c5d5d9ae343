/**
 * Issue 14, item 10: no "Discount -$0.00"; the quote's expiry in the origin's local time; the
 * config directory named shipper (moved once from shipper-nodejs); --idempotency-key named in its
 * messages; a base URL ending in /v1 or /v1/shipper used as the server's root.
 */
import { mkdir, readFile, readdir, stat, writeFile } from 'node:fs/promises';
import { withoutFreightCheck } from '../helpers/freightCheck.js';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverRootOf } from '../../src/api/wire.js';
import { tempDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inProcess.js';
import { startServe, type ServeProcess } from '../helpers/serve.js';
import { withContact } from '../helpers/fixtures.js';

const NOW = '2026-11-23T15:00:00Z';
let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('shipper-small-'));
});
afterAll(() => cleanup());

const quote = (args: string[], env: Record<string, string> = {}) => runInProcess(['--store', join(dir, 'store'), 'quote', ...args], { env: { SHIPPER_NOW: NOW, ...env } });

describe('the price breakdown', () => {
  it('has no discount line when the minimum charge applies (it replaces the discounted linehaul)', async () => {
    const minimum = await quote(['--from', '60601', '--to', '10001', '-c', 'pallets=1,weight=100,dims=48x40x40,desc=Parts']);
    expect(minimum.code).toBe(0);
    expect(minimum.stdout).toContain('Linehaul (minimum charge)');
    expect(minimum.stdout).not.toMatch(/Discount/);
    expect(minimum.stdout).not.toContain('-$0.00');
    // The lines still add up to the total.
    const amounts = [...minimum.stdout.matchAll(/^ {2}(?:Linehaul \(minimum charge\)|Fuel surcharge)\s+\$([\d,.]+)$/gm)].map((match) => Number(match[1]!.replace(/,/g, '')));
    const total = Number(/Total\s+\$([\d,.]+)/.exec(minimum.stdout)![1]!.replace(/,/g, ''));
    expect(amounts.reduce((sum, amount) => sum + amount, 0)).toBeCloseTo(total, 2);
  });

  it('keeps the discount line when there is a discount', async () => {
    const discounted = await quote(['--from', '60601', '--to', '10001', '-c', 'pallets=2,weight=1200,dims=48x40x48,desc=Parts']);
    expect(discounted.stdout).toMatch(/^ {2}Discount\s+-\$[1-9][\d,]*\.\d\d$/m);
  });
});

describe('the quote expiry', () => {
  it("is shown in the origin's local time, like the ETA in the destination's", async () => {
    // The end of its pickup day (Tuesday 2026-11-24) at the origin, before its 48 hours: in Chicago's time, in Los Angeles'.
    const chicago = await quote(['--from', '60601', '--to', '10001', '-c', 'pallets=2,weight=1200,dims=48x40x48,desc=Parts']);
    expect(chicago.stdout).toMatch(/valid until Tue 2026-11-24 23:59 CST/);
    expect(chicago.stdout).toMatch(/ETA Mon 2026-11-30 17:00 EST/);
    const losAngeles = await quote(['--from', '90210', '--to', '10001', '-c', 'pallets=2,weight=1200,dims=48x40x48,desc=Parts']);
    expect(losAngeles.stdout).toMatch(/valid until Tue 2026-11-24 23:59 PST/);
    // 48 hours (the published 2 days) after 2026-11-23 15:00 UTC (Monday 07:00 in Los Angeles), before its pickup day: its lifetime, not the end of that day, closes it.
    const id = JSON.parse(
      (await quote(['--from', '90210', '--to', '60601', '--pickup-date', '2026-11-30', '-c', 'pallets=1,weight=500,dims=48x40x48,desc=Parts', '--json'])).stdout,
    ).id as string;
    const shown = await runInProcess(['--store', join(dir, 'store'), 'quote', 'get', id], { env: { SHIPPER_NOW: NOW } });
    expect(shown.stdout).toMatch(/Status {4}open until Wed 2026-11-25 07:00 PST/);
    // After expiry, still the origin's time.
    const later = await runInProcess(['--store', join(dir, 'store'), 'quote', 'get', id], { env: { SHIPPER_NOW: '2026-12-01T15:00:00Z' } });
    expect(later.stdout).toMatch(/expired Wed 2026-11-25 07:00 PST/);
  });
});

describe('the config directory', () => {
  /** A home of its own: XDG_CONFIG_HOME decides where the config lives (SHIPPER_CONFIG_DIR unset). */
  async function home(name: string) {
    const root = join(dir, name);
    await mkdir(root, { recursive: true });
    const env = { HOME: root, XDG_CONFIG_HOME: join(root, '.config'), SHIPPER_CONFIG_DIR: undefined };
    const cli = (args: string[]) => runInProcess(args, { env });
    return { root, cli, current: join(root, '.config', 'shipper', 'config.json'), legacy: join(root, '.config', 'shipper-nodejs', 'config.json') };
  }

  it('is named shipper', async () => {
    const { cli, current } = await home('fresh');
    expect(await cli(['config', 'path'])).toMatchObject({ code: 0, stdout: `${current}\n`, stderr: '' });
    expect((await cli(['config', 'set', 'timeoutMs', '5000'])).code).toBe(0);
    expect(JSON.parse(await readFile(current, 'utf8'))).toEqual({ timeoutMs: 5000 });
    expect((await stat(current)).mode & 0o777).toBe(0o600);
  });

  it('a config at the old place (shipper-nodejs) is moved to the new one, once, saying so once; its settings stay in effect', async () => {
    const { root, cli, current, legacy } = await home('upgraded');
    await mkdir(join(root, '.config', 'shipper-nodejs'), { recursive: true });
    await writeFile(legacy, JSON.stringify({ timeoutMs: 4321, profiles: { sandbox: { baseUrl: 'https://sandbox.example.com' } } }), { mode: 0o600 });
    const first = await cli(['config', 'get', 'timeoutMs']);
    expect(first).toMatchObject({ code: 0, stdout: '4321\n' });
    expect(first.stderr).toBe(`shipper: moved the config file from ${legacy} to ${current} (the config directory is now named shipper)\n`);
    expect(JSON.parse(await readFile(current, 'utf8'))).toMatchObject({ timeoutMs: 4321 });
    await expect(stat(legacy)).rejects.toThrow();
    // The empty old directory went with it.
    expect(await readdir(join(root, '.config'))).toEqual(['shipper']);
    const second = await cli(['config', 'get', 'timeoutMs']);
    expect(second).toMatchObject({ code: 0, stdout: '4321\n', stderr: '' });
    // Every command reads it there, not only `config`.
    const list = await cli(['config', 'list', '--json']);
    expect(JSON.parse(list.stdout)).toMatchObject({ path: current, effective: { timeoutMs: 4321 } });
  });

  it('when both exist the new one is read and the old one is left alone', async () => {
    const { root, cli, current, legacy } = await home('both');
    await mkdir(join(root, '.config', 'shipper-nodejs'), { recursive: true });
    await mkdir(join(root, '.config', 'shipper'), { recursive: true });
    await writeFile(legacy, JSON.stringify({ timeoutMs: 1111 }));
    await writeFile(current, JSON.stringify({ timeoutMs: 2222 }));
    expect(await cli(['config', 'get', 'timeoutMs'])).toMatchObject({ code: 0, stdout: '2222\n', stderr: '' });
    expect(JSON.parse(await readFile(legacy, 'utf8'))).toEqual({ timeoutMs: 1111 });
  });

  it('an old config that cannot be moved is read where it is, and the notice says why', async () => {
    const { root, cli, legacy } = await home('stuck');
    await mkdir(join(root, '.config', 'shipper-nodejs'), { recursive: true });
    await writeFile(legacy, JSON.stringify({ timeoutMs: 3333 }));
    // A file where the new directory would go: nothing can be moved into it.
    await writeFile(join(root, '.config', 'shipper'), 'not a directory');
    const result = await cli(['config', 'get', 'timeoutMs']);
    expect(result).toMatchObject({ code: 0, stdout: '3333\n' });
    expect(result.stderr).toMatch(new RegExp(`^shipper: reading the config file at its old place ${legacy.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: it could not be moved`));
    expect(JSON.parse(await readFile(legacy, 'utf8'))).toEqual({ timeoutMs: 3333 });
  });

  it('SHIPPER_CONFIG_DIR is used as it is: no old place is looked at', async () => {
    const { root } = await home('explicit');
    await mkdir(join(root, '.config', 'shipper-nodejs'), { recursive: true });
    await writeFile(join(root, '.config', 'shipper-nodejs', 'config.json'), JSON.stringify({ timeoutMs: 1111 }));
    const configDir = join(root, 'ci-config');
    const result = await runInProcess(['config', 'path'], { env: { HOME: root, XDG_CONFIG_HOME: join(root, '.config'), SHIPPER_CONFIG_DIR: configDir } });
    expect(result).toMatchObject({ code: 0, stdout: `${join(configDir, 'config.json')}\n`, stderr: '' });
    expect(await readdir(join(root, '.config', 'shipper-nodejs'))).toEqual(['config.json']);
  });
});

describe('--idempotency-key', () => {
  const ship = (key: string, pallets: number) =>
    runInProcess(
      [
        '--store',
        join(dir, 'store'),
        'ship',
        '--shipper',
        withContact('name=Acme,address1=100 N State St,city=Chicago,state=IL,zip=60601'),
        '--consignee',
        withContact('name=Store 12,address1=1 Penn Plaza,city=New York,state=NY,zip=10001'),
        '-c',
        `pallets=${pallets},weight=800,dims=48x40x48,desc=Parts`,
        '--idempotency-key',
        key,
      ],
      { env: { SHIPPER_NOW: NOW } },
    );

  it('reused for a different shipment: the message names the flag, not the HTTP header', async () => {
    expect((await ship('order-77', 1)).code).toBe(0);
    const reused = await ship('order-77', 2);
    expect(reused.code).toBe(1);
    expect(reused.stderr).toContain('--idempotency-key order-77 was already used to book a different shipment');
    expect(reused.stderr).not.toContain('Idempotency-Key');
  });

  it('refuses a key the server would refuse, locally too (exit 2), naming the flag', async () => {
    for (const key of ['has space', '', 'x'.repeat(256), 'é']) {
      const result = await ship(key, 1);
      expect(result.code, JSON.stringify(key)).toBe(2);
      expect(result.stderr).toMatch(/^shipper: --idempotency-key must be 1 to 255 printable ASCII characters without spaces/);
    }
    expect((await ship('y'.repeat(255), 1)).code).toBe(0);
  });
});

describe('a base URL ending in /v1', () => {
  it('the server root is the URL without /v1 or /v1/shipper', () => {
    expect(serverRootOf('https://api.example.com/v1')).toBe('https://api.example.com');
    expect(serverRootOf('https://api.example.com/v1/shipper')).toBe('https://api.example.com');
    expect(serverRootOf('https://api.example.com/v1/shipper/')).toBe('https://api.example.com');
    expect(serverRootOf('https://api.example.com/V1')).toBe('https://api.example.com');
    expect(serverRootOf('https://example.com/freight/v1')).toBe('https://example.com/freight');
    for (const unchanged of ['https://api.example.com', 'https://example.com/v12', 'https://example.com/v1x', 'https://example.com/shipper', 'http://127.0.0.1:8787']) {
      expect(serverRootOf(unchanged)).toBe(unchanged);
    }
  });

  describe('against shipper serve', () => {
    let server: ServeProcess;
    beforeAll(async () => {
      server = await startServe({ store: join(dir, 'served') });
    }, 30_000);
    afterAll(() => server?.stop());

    it('works, with one warning saying the base URL is the server root', async () => {
      for (const suffix of ['/v1', '/v1/shipper/']) {
        const result = await runInProcess(
          ['--base-url', `${server.url}${suffix}`, 'quote', '--from', '60601', '--to', '10001', '-c', 'pallets=1,weight=500,dims=48x40x48,desc=Parts', '--json'],
          { env: { SHIPPER_NOW: NOW } },
        );
        expect(result.code, result.stderr).toBe(0);
        expect(JSON.parse(result.stdout)).toMatchObject({ id: expect.stringMatching(/^qt_/) });
        const root = server.url.replace(/\/+$/, '');
        expect(withoutFreightCheck(result.stderr)).toBe(
          `warning: [BASE_URL_ROOT] the base URL is the server's root: using ${root}, not ${root}${suffix.replace(/\/$/, '')} (the API's paths start with /v1/shipper)\n`,
        );
      }
      const plain = await runInProcess(['--base-url', server.url, 'quote', 'list', '--json']);
      expect(plain).toMatchObject({ code: 0, stderr: '' });
    });
  });
});
