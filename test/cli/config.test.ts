/** `shipper config ...` as a user runs it: conf's file, owner-only, keys masked, precedence. */
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inProcess.js';

let dir: string;
let cleanup: () => Promise<void>;
const SECRET = 'sk_test_0123456789abcdefWXYZ';

beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterEach(() => cleanup());

/** The CLI with its config under the temporary directory (XDG_CONFIG_HOME, as conf resolves it). */
const cli = (args: string[], options: { env?: Record<string, string>; input?: string } = {}) =>
  runInProcess(args, { env: { XDG_CONFIG_HOME: dir, SHIPPER_CONFIG_DIR: undefined, ...options.env }, input: options.input });

const configFile = () => join(dir, 'shipper', 'config.json');

describe('shipper config', () => {
  it('path names conf’s file', async () => {
    const result = await cli(['config', 'path']);
    expect(result).toMatchObject({ code: 0, stdout: `${configFile()}\n`, stderr: '' });
  });

  it('set writes an owner-only file; get, list and set itself never print the key in full', async () => {
    const set = await cli(['config', 'set', 'profiles.sandbox.apiKey', SECRET]);
    expect(set.code).toBe(0);
    expect(set.stdout).toBe('profiles.sandbox.apiKey = ****WXYZ\n');
    expect((await stat(configFile())).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(configFile(), 'utf8'))).toEqual({ profiles: { sandbox: { apiKey: SECRET } } });

    const outputs = await Promise.all([
      cli(['config', 'get', 'profiles.sandbox.apiKey']),
      cli(['config', 'get', 'profiles.sandbox.apiKey', '--json']),
      cli(['config', 'list']),
      cli(['config', 'list', '--json']),
      cli(['--sandbox', 'config', 'get', 'apiKey']),
    ]);
    for (const output of outputs) {
      expect(output.code).toBe(0);
      expect(output.stdout + output.stderr).not.toContain(SECRET.slice(0, -4));
    }
    expect(outputs[0]!.stdout).toBe('****WXYZ\n');
    expect(outputs[4]!.stdout).toBe('****WXYZ\n');
    expect(JSON.parse(outputs[3]!.stdout)).toMatchObject({
      settings: { 'profiles.sandbox.apiKey': '****WXYZ' },
      effective: { mode: 'local', profile: 'production', apiKey: null },
    });
  });

  it('reads a key from stdin with -, so it stays out of the shell history', async () => {
    const result = await cli(['config', 'set', 'apiKey', '-'], { input: `${SECRET}\n` });
    expect(result.stdout).toBe('profiles.production.apiKey = ****WXYZ\n');
    expect(JSON.parse(await readFile(configFile(), 'utf8')).profiles.production.apiKey).toBe(SECRET);
  });

  it('refuses unknown settings and bad values with one message and exit 2, writing nothing', async () => {
    const results = await Promise.all([
      cli(['config', 'set', 'colour', 'blue']),
      cli(['config', 'set', 'mode', 'cloud']),
      cli(['config', 'set', 'timeoutMs', '5s']),
      cli(['config', 'set', 'profiles.sandbox.baseUrl', 'ftp://x']),
      cli(['config', 'set', 'profiles.bad name.baseUrl', 'https://x']),
    ]);
    for (const result of results) {
      expect(result.code).toBe(2);
      expect(result.stderr.split('\n')[0]).toMatch(/^shipper: /);
    }
    expect(results[1]!.stderr).toBe('shipper: mode: must be local or remote\n');
    expect(results[2]!.stderr).toBe('shipper: timeoutMs: must be a whole number from 100 to 600000\n');
    await expect(stat(configFile())).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('checks the x12 settings as the tender will, naming the field, and writes nothing when one is wrong', async () => {
    const refused = await Promise.all([
      cli(['config', 'set', 'x12', '{"senderId":"ACME*SHIP"}']),
      cli(['config', 'set', 'x12', '{"senderId":"ACMESHIP","usage":"prod"}']),
      cli(['config', 'set', 'x12', '{"usage":"test"}']),
      cli(['config', 'set', 'x12', '{"senderId":"ACMESHIP","senderQualifier":"Z"}']),
    ]);
    expect(refused.map((result) => [result.code, result.stderr])).toEqual([
      [2, 'shipper: x12.senderId: senderId is letters, digits, spaces and . - _ / & @ #\n'],
      [2, 'shipper: x12.usage: usage is production or test\n'],
      [2, 'shipper: x12.senderId: senderId is required\n'],
      [2, expect.stringMatching(/^shipper: x12\.senderQualifier: senderQualifier is a 2-character ISA qualifier/)],
    ]);
    await expect(stat(configFile())).rejects.toMatchObject({ code: 'ENOENT' });
    // The boundary: 15 characters fit ISA06, 16 do not.
    expect((await cli(['config', 'set', 'x12', '{"senderId":"ABCDEFGHIJKLMNOP"}'])).stderr).toBe('shipper: x12.senderId: senderId has at most 15 characters\n');
    expect((await cli(['config', 'set', 'x12', '{"senderId":"ABCDEFGHIJKLMNO"}'])).code).toBe(0);
  });

  it('checks the eBOL settings as the tender will', async () => {
    expect(await cli(['config', 'set', 'ebol', '{"requestorRole":"Carrier"}'])).toMatchObject({
      code: 2,
      stderr: 'shipper: ebol.requestorRole: requestorRole is Shipper, Consignee or Third Party\n',
    });
    expect((await cli(['config', 'set', 'ebol', '{"isTest":"yes"}'])).code).toBe(2);
    expect((await cli(['config', 'set', 'ebol', '{"isTest":true,"requestorRole":"Shipper"}'])).code).toBe(0);
  });

  it('get of a setting that is not there exits 1; unset removes one', async () => {
    expect((await cli(['config', 'get', 'mode'])).code).toBe(1);
    await cli(['config', 'set', 'mode', 'remote']);
    expect((await cli(['config', 'get', 'mode'])).stdout).toBe('remote\n');
    expect((await cli(['config', 'unset', 'mode'])).code).toBe(0);
    expect((await cli(['config', 'get', 'mode'])).code).toBe(1);
  });

  it('flags beat the environment, which beats the config file', async () => {
    await cli(['config', 'set', 'mode', 'remote']);
    await cli(['config', 'set', 'profiles.production.baseUrl', 'https://config.example.com']);
    const effective = async (args: string[], env: Record<string, string> = {}) =>
      JSON.parse((await cli([...args, 'config', 'list', '--json'], { env })).stdout).effective as Record<string, unknown>;
    expect(await effective([])).toMatchObject({ mode: 'remote', baseUrl: 'https://config.example.com' });
    expect(await effective([], { SHIPPER_BASE_URL: 'https://env.example.com', SHIPPER_MODE: 'local' })).toMatchObject({ mode: 'local', baseUrl: 'https://env.example.com' });
    expect(await effective(['--base-url', 'https://flag.example.com'], { SHIPPER_BASE_URL: 'https://env.example.com', SHIPPER_MODE: 'local' })).toMatchObject({
      mode: 'remote',
      baseUrl: 'https://flag.example.com',
    });
    expect(await effective(['--local'])).toMatchObject({ mode: 'local' });
  });

  it('a damaged config file is one clear message naming it, for every command that reads it', async () => {
    await cli(['config', 'set', 'mode', 'local']);
    await writeFile(configFile(), '{"mode": ');
    const results = await Promise.all([cli(['quote', 'list', '--store', dir]), cli(['config', 'list']), cli(['config', 'set', 'mode', 'local'])]);
    for (const result of results) {
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(configFile());
      expect(result.stderr).not.toMatch(/\n\s+at /);
    }
    // --version and help never read it.
    expect((await cli(['--version'])).code).toBe(0);
  });
});
