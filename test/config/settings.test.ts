/** Settings resolution (flags > env > config > defaults) and the config file reader. */
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, configFilePath, defaultStoreDir, maskSecret, platformConfigDir, readConfigFile, resolveSettings, type ConfigFile } from '../../src/config/settings.js';
import { DEFAULT_PROFILES } from '../../src/domain/apiServers.js';
import { tempDir } from '../helpers/cli.js';

const config: ConfigFile = {
  mode: 'remote',
  profile: 'staging',
  timeoutMs: 5000,
  profiles: {
    staging: { baseUrl: 'https://staging.example.com', apiKey: 'config-key-000000' },
    sandbox: { apiKey: 'sandbox-key-00000' },
  },
};

describe('resolveSettings', () => {
  it('defaults to local mode, the production profile and the published production URL', () => {
    const settings = resolveSettings({}, {}, {});
    expect(settings).toMatchObject({
      mode: 'local',
      profile: 'production',
      baseUrl: 'https://api.oway.io',
      apiKey: undefined,
      timeoutMs: 30_000,
      retries: 2,
      service: 'published',
    });
    expect(settings.sources).toEqual({
      mode: 'default',
      profile: 'default',
      baseUrl: 'default',
      apiKey: 'default',
      timeoutMs: 'default',
      retries: 'default',
      service: 'default',
      store: 'default',
      bolCompanyPrefix: 'default',
    });
    expect(settings.store).toMatch(/shipper$/);
    expect(settings).toMatchObject({ clockStart: undefined, serveApiKey: undefined, bolCompanyPrefix: undefined, debug: false });
  });

  it('takes the config file: mode, profile, its base URL and key', () => {
    const settings = resolveSettings({}, {}, config);
    expect(settings).toMatchObject({ mode: 'remote', profile: 'staging', baseUrl: 'https://staging.example.com', apiKey: 'config-key-000000', timeoutMs: 5000 });
    expect(settings.sources).toMatchObject({ mode: 'config', profile: 'config', baseUrl: 'config', apiKey: 'config' });
  });

  it('lets the environment override the config file', () => {
    const env = { SHIPPER_MODE: 'local', SHIPPER_PROFILE: 'sandbox', SHIPPER_API_KEY: 'env-key', SHIPPER_TIMEOUT_MS: '900', SHIPPER_RETRIES: '0' };
    const settings = resolveSettings({}, env, config);
    expect(settings).toMatchObject({ mode: 'local', profile: 'sandbox', baseUrl: DEFAULT_PROFILES.sandbox.baseUrl, apiKey: 'env-key', timeoutMs: 900, retries: 0 });
    expect(resolveSettings({}, { SHIPPER_BASE_URL: 'http://127.0.0.1:9/' }, {})).toMatchObject({ mode: 'remote', baseUrl: 'http://127.0.0.1:9' });
  });

  it('lets flags override the environment', () => {
    const env = { SHIPPER_MODE: 'remote', SHIPPER_BASE_URL: 'https://env.example.com', SHIPPER_API_KEY: 'env-key', SHIPPER_PROFILE: 'staging' };
    expect(resolveSettings({ local: true }, env, config).mode).toBe('local');
    const flagged = resolveSettings({ baseUrl: 'https://flag.example.com', apiKey: 'flag-key' }, env, config);
    expect(flagged).toMatchObject({ mode: 'remote', baseUrl: 'https://flag.example.com', apiKey: 'flag-key' });
    expect(flagged.sources).toMatchObject({ mode: 'flag', baseUrl: 'flag', apiKey: 'flag' });
    // --sandbox picks the sandbox profile and its URL over SHIPPER_BASE_URL; the key rule stays flag > env > config.
    expect(resolveSettings({ sandbox: true }, env, config)).toMatchObject({ mode: 'remote', profile: 'sandbox', baseUrl: DEFAULT_PROFILES.sandbox.baseUrl, apiKey: 'env-key' });
    expect(resolveSettings({ sandbox: true }, {}, config)).toMatchObject({ apiKey: 'sandbox-key-00000' });
    expect(resolveSettings({ profile: 'staging' }, { SHIPPER_PROFILE: 'sandbox' }, config).profile).toBe('staging');
  });

  it('has no base URL for an unknown profile without one', () => {
    expect(resolveSettings({ profile: 'acme' }, {}, {}).baseUrl).toBeUndefined();
  });

  it('refuses contradictions and bad values with a clear message', () => {
    expect(() => resolveSettings({ local: true, remote: true }, {}, {})).toThrow(ConfigError);
    expect(() => resolveSettings({ sandbox: true, profile: 'staging' }, {}, {})).toThrow(/--sandbox selects the sandbox profile/);
    expect(() => resolveSettings({}, { SHIPPER_MODE: 'cloud' }, {})).toThrow('SHIPPER_MODE=cloud must be local or remote');
    expect(() => resolveSettings({}, { SHIPPER_TIMEOUT_MS: '5s' }, {})).toThrow('SHIPPER_TIMEOUT_MS=5s must be a whole number from 100 to 600000');
    expect(() => resolveSettings({ baseUrl: 'ftp://x' }, {}, {})).toThrow(/base URL ftp:\/\/x \(from --base-url\) must be an http/);
  });

  it('resolves the store, the tariff, the clock, the serve key and the BOL prefix in the same order', () => {
    expect(resolveSettings({ store: '/flag' }, { SHIPPER_STORE: '/env' }, { store: '/config' }).store).toBe('/flag');
    expect(resolveSettings({}, { SHIPPER_STORE: '/env' }, { store: '/config' }).store).toBe('/env');
    expect(resolveSettings({}, {}, { store: '/config' }).store).toBe('/config');
    expect(resolveSettings({ store: 'relative/dir' }, {}, {}).store).toBe(join(process.cwd(), 'relative/dir'));
    expect(resolveSettings({}, { SHIPPER_TARIFF: '/env.json' }, { tariff: '/config.json' }).tariff).toBe('/env.json');
    expect(resolveSettings({}, { SHIPPER_NOW: '2026-11-23T15:00:00Z' }, {}).clockStart).toBe(Date.UTC(2026, 10, 23, 15));
    expect(() => resolveSettings({}, { SHIPPER_NOW: 'next tuesday' }, {})).toThrow(/SHIPPER_NOW=next tuesday is not an ISO-8601 instant/);
    expect(resolveSettings({}, { SHIPPER_SERVE_API_KEY: 'k' }, {}).serveApiKey).toBe('k');
    expect(resolveSettings({}, { SHIPPER_DEBUG: '1' }, {}).debug).toBe(true);
  });

  it('takes the GS1 company prefix of BOL numbers from the environment, else the config, 7 to 10 digits', () => {
    expect(resolveSettings({}, { SHIPPER_BOL_COMPANY_PREFIX: '0812345' }, { bolCompanyPrefix: '1234567890' }).bolCompanyPrefix).toBe('0812345');
    expect(resolveSettings({}, {}, { bolCompanyPrefix: '1234567890' }).bolCompanyPrefix).toBe('1234567890');
    expect(() => resolveSettings({}, { SHIPPER_BOL_COMPANY_PREFIX: '123456' }, {})).toThrow(/7 to 10 digits/);
    expect(() => resolveSettings({}, { SHIPPER_BOL_COMPANY_PREFIX: '12345678901' }, {})).toThrow(/7 to 10 digits/);
    expect(() => resolveSettings({}, { SHIPPER_BOL_COMPANY_PREFIX: '12345x7' }, {})).toThrow(/7 to 10 digits/);
  });
});

describe('the service a remote server offers', () => {
  it('--sandbox is the published sandbox, and a configured sandbox still wins', () => {
    expect(resolveSettings({ sandbox: true }, {}, {})).toMatchObject({ mode: 'remote', baseUrl: 'https://api.sandbox.oway.io', service: 'published' });
    expect(DEFAULT_PROFILES.sandbox.baseUrl).toBe('https://api.sandbox.oway.io');
    const configured = { profiles: { sandbox: { baseUrl: 'http://127.0.0.1:8790' } } };
    expect(resolveSettings({ sandbox: true }, {}, configured)).toMatchObject({ baseUrl: 'http://127.0.0.1:8790', service: 'serve' });
  });

  it("takes Oway's hosts for the published service and any other for shipper serve, unless told", () => {
    expect(resolveSettings({ baseUrl: 'https://api.oway.io/' }, {}, {}).service).toBe('published');
    expect(resolveSettings({ baseUrl: 'http://127.0.0.1:8787' }, {}, {}).service).toBe('serve');
    expect(resolveSettings({ baseUrl: 'https://notoway.io' }, {}, {}).service).toBe('serve');
    expect(resolveSettings({ baseUrl: 'http://127.0.0.1:8787' }, { SHIPPER_SERVICE: 'Published' }, {})).toMatchObject({ service: 'published', sources: { service: 'env' } });
    expect(resolveSettings({}, {}, { service: 'serve' })).toMatchObject({ service: 'serve', sources: { service: 'config' } });
  });

  it('refuses a service it does not know, naming the two', () => {
    expect(() => resolveSettings({}, { SHIPPER_SERVICE: 'oway' }, {})).toThrow('SHIPPER_SERVICE=oway must be published or serve');
  });
});

describe('maskSecret', () => {
  it('shows at most the last four characters, of long keys only', () => {
    expect(maskSecret('sk_live_0123456789abcd')).toBe('****abcd');
    expect(maskSecret('short-key')).toBe('****');
  });
});

describe('readConfigFile', () => {
  it('reads conf’s file, none when absent, and names a damaged file', async () => {
    const { dir, cleanup } = await tempDir();
    try {
      const file = configFilePath({ SHIPPER_CONFIG_DIR: dir });
      expect(file).toBe(join(dir, 'config.json'));
      expect(readConfigFile(file)).toEqual({});
      await mkdir(dir, { recursive: true });
      await writeFile(file, JSON.stringify({ mode: 'remote', somethingNewer: 1 }));
      expect(readConfigFile(file)).toEqual({ mode: 'remote', somethingNewer: 1 });
      await writeFile(file, '{"mode": ');
      expect(() => readConfigFile(file)).toThrow(`the config file ${file} is not valid JSON; fix it or remove it (shipper config path)`);
      await writeFile(file, JSON.stringify({ mode: 'cloud' }));
      expect(() => readConfigFile(file)).toThrow(`the config file ${file} has a bad setting mode: must be local or remote`);
      await writeFile(file, '{}');
      await chmod(file, 0o000);
      if (process.getuid?.() !== 0) expect(() => readConfigFile(file)).toThrow(/cannot read the config file/);
    } finally {
      await cleanup();
    }
  });

  it('lives in the platform config directory under shipper (conf writes it there through cwd)', async () => {
    const { dir, cleanup } = await tempDir();
    const saved = process.env.XDG_CONFIG_HOME;
    process.env.XDG_CONFIG_HOME = dir; // conf (through env-paths) reads process.env
    try {
      const { default: Conf } = await import('conf');
      const conf = new Conf({ projectName: 'shipper', cwd: join(dir, 'shipper') });
      expect(configFilePath(process.env)).toBe(conf.path);
      expect(conf.path).toBe(join(dir, 'shipper', 'config.json'));
    } finally {
      if (saved === undefined) delete process.env.XDG_CONFIG_HOME;
      else process.env.XDG_CONFIG_HOME = saved;
      await cleanup();
    }
  });
});

describe('the default directories follow the environment main() is given, as env-paths places them', () => {
  it('config and store on Linux, macOS and Windows', async () => {
    const envPaths = (await import('env-paths')).default;
    const home = '/home/ops';
    expect(platformConfigDir('shipper', { HOME: home }, 'linux')).toBe('/home/ops/.config/shipper');
    expect(platformConfigDir('shipper', { HOME: home, XDG_CONFIG_HOME: '/cfg' }, 'linux')).toBe('/cfg/shipper');
    expect(defaultStoreDir({ HOME: home }, 'linux')).toBe('/home/ops/.local/share/shipper');
    expect(defaultStoreDir({ HOME: home, XDG_DATA_HOME: '/data' }, 'linux')).toBe('/data/shipper');
    expect(platformConfigDir('shipper', { HOME: home }, 'darwin')).toBe('/home/ops/Library/Preferences/shipper');
    expect(defaultStoreDir({ HOME: home }, 'darwin')).toBe('/home/ops/Library/Application Support/shipper');
    expect(defaultStoreDir({ HOME: home, LOCALAPPDATA: 'C:/Users/ops/AppData/Local' }, 'win32')).toBe(join('C:/Users/ops/AppData/Local', 'shipper', 'Data'));
    // On this machine, env-paths itself (conf's resolver) agrees.
    expect(defaultStoreDir(process.env)).toBe(envPaths('shipper', { suffix: '' }).data);
    expect(platformConfigDir('shipper', process.env)).toBe(envPaths('shipper', { suffix: '' }).config);
  });
});
