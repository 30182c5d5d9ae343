/**
 * Shell completion for bash, zsh and fish: subcommands, flags, every accessorial code of the
 * tariff, saved locations and BOL templates (asked of `shipper __complete` as the user presses Tab,
 * from the store the command line names), and the values of --format, --status, --terms, --fob.
 * The generated text is tested everywhere; each script also runs in its shell where that shell is
 * installed (bash always is here; zsh and fish when they are).
 */
import { spawnSync } from 'node:child_process';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ROOT, tempDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inProcess.js';

const TARIFF_CODES = Object.keys((JSON.parse(await readFile(join(ROOT, 'templates/tariff/default.json'), 'utf8')) as { accessorials: Record<string, unknown> }).accessorials);
const installed = (shell: string) => spawnSync(shell, ['-c', 'exit 0'], { env: env() }).status === 0;

let dir: string;
let cleanup: () => Promise<void>;
let store: string;
let otherStore: string;
/** PATH with a `shipper` that runs the built CLI, as an installed one would. */
let path: string;
const scripts: Record<'bash' | 'zsh' | 'fish', string> = { bash: '', zsh: '', fish: '' };

const addLocation = (storeDir: string, name: string) =>
  runInProcess(['--store', storeDir, 'location', 'add', name, '--name', 'Acme', '--address1', '100 N State St', '--city', 'Chicago', '--state', 'IL', '--zip', '60601']);

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('shipper-completion-'));
  store = join(dir, 'store');
  otherStore = join(dir, 'other-store');
  for (const name of ['chicago-dc', 'Chicago-North', 'nyc-store']) expect((await addLocation(store, name)).code).toBe(0);
  expect((await addLocation(otherStore, 'dallas-yard')).code).toBe(0);
  const bin = join(dir, 'bin');
  await mkdir(bin);
  await writeFile(join(bin, 'shipper'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  await chmod(join(bin, 'shipper'), 0o755);
  path = `${bin}:${process.env.PATH}`;
  for (const shell of ['bash', 'zsh', 'fish'] as const) {
    const result = await runInProcess(['completion', shell], { env: { SHIPPER_STORE: store } });
    expect(result.code).toBe(0);
    scripts[shell] = result.stdout;
    await writeFile(join(dir, `shipper.${shell}`), result.stdout);
  }
}, 60_000);
afterAll(() => cleanup());

/** The shells run with a home of their own: fish writes its settings there, never in the developer's. */
const env = () => ({
  ...process.env,
  PATH: path,
  HOME: dir,
  XDG_CONFIG_HOME: join(dir, 'xdg-config'),
  XDG_DATA_HOME: join(dir, 'xdg-data'),
  SHIPPER_STORE: store,
  SHIPPER_CONFIG_DIR: join(dir, 'config'),
  NO_COLOR: '1',
});

/** What bash offers for the words, the last one being completed. */
function bash(words: string[]): string[] {
  const line = words.map((word) => `'${word}'`).join(' ');
  const probe = `source '${join(dir, 'shipper.bash')}'; COMP_WORDS=(${line}); COMP_CWORD=${words.length - 1}; _shipper; printf '%s\\n' "\${COMPREPLY[@]}"`;
  const run = spawnSync('bash', ['-c', probe], { encoding: 'utf8', env: env() });
  expect(run.stderr).toBe('');
  return run.stdout.split('\n').filter(Boolean);
}

/** What fish offers for the command line (candidates without their descriptions). */
function fish(commandLine: string): string[] {
  const run = spawnSync('fish', ['--no-config', '-c', `source '${join(dir, 'shipper.fish')}'; complete -C '${commandLine.replace(/'/g, "\\'")}'`], {
    encoding: 'utf8',
    env: env(),
  });
  expect(run.stderr).toBe('');
  return run.stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => line.split('\t')[0]!);
}

describe('shipper __complete', () => {
  it('prints the saved location names and the BOL template names, one per line, sorted', async () => {
    expect(await runInProcess(['--store', store, '__complete', 'locations'])).toMatchObject({ code: 0, stdout: 'chicago-dc\nchicago-north\nnyc-store\n', stderr: '' });
    expect(await runInProcess(['--store', otherStore, '__complete', 'locations'])).toMatchObject({ code: 0, stdout: 'dallas-yard\n' });
    // A store that does not exist yet has none; that is no error for a shell.
    expect(await runInProcess(['--store', join(dir, 'nothing-here'), '__complete', 'locations'])).toMatchObject({ code: 0, stdout: '' });
    const templates = await runInProcess(['__complete', 'templates']);
    expect(templates.stdout.split('\n').filter(Boolean)).toEqual(expect.arrayContaining(['standard', 'acme-logistics']));
  });

  it('is not a command people see, and refuses what it does not know', async () => {
    expect((await runInProcess(['--help'])).stdout).not.toContain('__complete');
    expect((await runInProcess(['__complete', 'shipments'])).code).toBe(2);
  });
});

describe('bash', () => {
  it('parses', () => {
    expect(spawnSync('bash', ['-n', join(dir, 'shipper.bash')], { encoding: 'utf8', env: env() }).stderr).toBe('');
  });

  it('completes every accessorial code of the tariff (ten), not a hand-kept five', () => {
    expect(TARIFF_CODES).toHaveLength(10);
    expect(bash(['shipper', 'quote', '--accessorial', '']).sort()).toEqual([...TARIFF_CODES].sort());
    expect(bash(['shipper', 'ship', '-a', 'INSIDE_'])).toEqual(['INSIDE_PICKUP', 'INSIDE_DELIVERY']);
    expect(bash(['shipper', 'quote', '-a', 'LIMITED'])).toEqual(['LIMITED_ACCESS_PICKUP', 'LIMITED_ACCESS_DELIVERY']);
  });

  it('completes saved locations for --shipper, --consignee and --bill-to, from the store the line names', () => {
    expect(bash(['shipper', 'ship', '--shipper', ''])).toEqual(['chicago-dc', 'chicago-north', 'nyc-store']);
    expect(bash(['shipper', 'ship', '--consignee', 'n'])).toEqual(['nyc-store']);
    expect(bash(['shipper', 'ship', '--bill-to', 'chi'])).toEqual(['chicago-dc', 'chicago-north']);
    expect(bash(['shipper', '--store', otherStore, 'ship', '--shipper', ''])).toEqual(['dallas-yard']);
    expect(bash(['shipper', 'location', 'show', ''])).toEqual(['chicago-dc', 'chicago-north', 'nyc-store']);
    expect(bash(['shipper', 'location', 'remove', 'ny'])).toEqual(['nyc-store']);
  });

  it('completes template names, subcommands and the values of --format, --status, --terms, --fob', () => {
    expect(bash(['shipper', 'bol', 'sh_1', '--template', ''])).toEqual(expect.arrayContaining(['standard', 'acme-logistics']));
    expect(bash(['shipper', 'bol', '-t', 'acme'])).toEqual(['acme-logistics']);
    expect(bash(['shipper', 'labels', 'sh_1', '--format', ''])).toEqual(['pdf', 'zpl']);
    expect(bash(['shipper', 'tender', 'sh_1', '--format', 'x12'])).toEqual(['x12-204', 'x12-211']);
    expect(bash(['shipper', 'shipment', 'list', '--status', ''])).toEqual([
      'active',
      'initialized',
      'confirmed',
      'accepted',
      'assigned',
      'picked_up',
      'delivered',
      'cancelled',
      'booked',
    ]);
    expect(bash(['shipper', 'quote', 'list', '--status', ''])).toEqual(['open', 'expired', 'booked']);
    expect(bash(['shipper', 'ship', '--terms', ''])).toEqual(['prepaid', 'collect', 'third-party']);
    expect(bash(['shipper', 'ship', '--fob', ''])).toEqual(['origin', 'destination']);
    expect(bash(['shipper', 'import', 'x.csv', '--encoding', 'utf1'])).toEqual(['utf16le', 'utf16be']);
    expect(bash(['shipper', 'report', 'spend', '--by', ''])).toEqual(['lane', 'carrier', 'month']);
    expect(bash(['shipper', 'shipment', ''])).toEqual(['get', 'list', 'update', 'cancel', 'confirm']);
    expect(bash(['shipper', 'location', ''])).toEqual(['add', 'list', 'show', 'remove']);
    expect(bash(['shipper', 'completion', ''])).toEqual(['bash', 'zsh', 'fish']);
    // Hidden commands are not offered.
    expect(bash(['shipper', ''])).not.toContain('__complete');
    expect(bash(['shipper', ''])).not.toContain('environment');
    // Free text gets nothing (a ZIP, a reference).
    expect(bash(['shipper', 'ship', '--ref', ''])).toEqual([]);
  });

  it('offers the codes of the tariff in effect (--tariff), not only the shipped one', async () => {
    const tariff = JSON.parse(await readFile(join(ROOT, 'templates/tariff/default.json'), 'utf8')) as { accessorials: Record<string, unknown> };
    tariff.accessorials.HAZMAT_HANDLING = { description: 'Hazardous material handling', amountInCents: 5000 };
    const file = join(dir, 'my-tariff.json');
    await writeFile(file, JSON.stringify(tariff));
    const script = await runInProcess(['--tariff', file, 'completion', 'bash']);
    expect(script.stdout).toMatch(/HAZMAT_HANDLING/);
    // A tariff that cannot be read: the shipped codes, and still a script.
    const broken = await runInProcess(['--tariff', join(dir, 'missing.json'), 'completion', 'bash']);
    expect(broken.code).toBe(0);
    for (const code of TARIFF_CODES) expect(broken.stdout).toContain(code);
  });
});

describe('zsh', () => {
  it('has the same values as bash, written for zsh', () => {
    const script = scripts.zsh;
    expect(script.startsWith('#compdef shipper\n')).toBe(true);
    expect(script).toContain(`'quote|--accessorial') compadd -- ${TARIFF_CODES.map((code) => `'${code}'`).join(' ')}; return ;;`);
    expect(script).toContain(`'ship|--shipper') compadd -- \${(f)"$(_shipper_dynamic locations)"}; return ;;`);
    expect(script).toContain(`'bol|--template') compadd -- \${(f)"$(_shipper_dynamic templates)"}; return ;;`);
    expect(script).toContain(`'labels|--format') compadd -- 'pdf' 'zpl'; return ;;`);
    expect(script).toContain(`'location show') compadd -- \${(f)"$(_shipper_dynamic locations)"}; return ;;`);
    expect(script).toContain("'completion') compadd -- 'bash' 'zsh' 'fish'; return ;;");
  });

  it('parses and finds names where zsh is installed', () => {
    if (!installed('zsh')) return expect(scripts.zsh).toContain('compdef _shipper shipper');
    expect(spawnSync('zsh', ['-n', join(dir, 'shipper.zsh')], { encoding: 'utf8', env: env() }).stderr).toBe('');
    // The helpers as _shipper calls them (compdef stubbed: no completion system in a script).
    const probe = `compdef() { :; }; source '${join(dir, 'shipper.zsh')}'; _shipper_subcommands 'shipment'; print -l "\${reply[@]%%:*}"; words=(shipper --store '${otherStore}' ship --shipper ''); CURRENT=6; _shipper_dynamic locations`;
    const run = spawnSync('zsh', ['-f', '-c', probe], { encoding: 'utf8', env: env() });
    expect(run.stderr).toBe('');
    expect(run.stdout.split('\n').filter(Boolean)).toEqual(['get', 'list', 'update', 'cancel', 'dallas-yard']);
  });
});

describe('fish', () => {
  it('is written for fish: a condition per command, values per flag, no files unless asked', () => {
    const script = scripts.fish;
    expect(script).toContain('complete -c shipper -f\n');
    expect(script).toContain("complete -c shipper -n '__shipper_is \\'quote\\'' -f -a 'list' -d 'list quotes, newest first");
    expect(script).toContain(`complete -c shipper -n '__shipper_is \\'quote\\'' -s 'a' -x -a '${TARIFF_CODES.join(' ')}'`);
    expect(script).toContain("complete -c shipper -n '__shipper_is \\'labels\\'' -l 'format' -x -a 'pdf zpl'");
    expect(script).toContain("complete -c shipper -n '__shipper_is \\'ship\\'' -l 'shipper' -x -a '(__shipper_dynamic locations)'");
    expect(script).toContain("complete -c shipper -n '__shipper_is \\'import\\'' -F");
    // Global flags once, for every command; --version only at the root.
    expect(script.match(/-l 'json'/g)).toHaveLength(1);
    expect(script).toContain("complete -c shipper -n '__shipper_is \\'\\'' -s 'V'");
  });

  it('parses and completes where fish is installed', () => {
    if (!installed('fish')) return expect(scripts.fish).toContain('function __shipper_path');
    expect(spawnSync('fish', ['--no-execute', join(dir, 'shipper.fish')], { encoding: 'utf8', env: env() }).stderr).toBe('');
    expect(fish('shipper quote --accessorial LIFT').sort()).toEqual(['LIFTGATE_DELIVERY', 'LIFTGATE_PICKUP']);
    expect(fish('shipper quote -a ').sort()).toEqual([...TARIFF_CODES].sort());
    expect(fish('shipper ship --shipper ')).toEqual(['chicago-dc', 'chicago-north', 'nyc-store']);
    expect(fish(`shipper --store ${otherStore} ship --consignee `)).toEqual(['dallas-yard']);
    expect(fish('shipper bol x --template ')).toEqual(expect.arrayContaining(['acme-logistics', 'standard']));
    expect(fish('shipper tender x --format ').sort()).toEqual(['ebol', 'x12-204', 'x12-211']);
    expect(fish('shipper shipment list --status ').sort()).toEqual(['booked', 'cancelled']);
    expect(fish('shipper ship --terms ').sort()).toEqual(['collect', 'prepaid', 'third-party']);
    expect(fish('shipper ship --fob ').sort()).toEqual(['destination', 'origin']);
    expect(fish('shipper shipment ').sort()).toEqual(['cancel', 'get', 'list', 'update']);
    expect(fish('shipper location show ')).toEqual(['chicago-dc', 'chicago-north', 'nyc-store']);
    expect(fish('shipper completion ').sort()).toEqual(['bash', 'fish', 'zsh']);
    expect(fish('shipper transit --da')).toEqual(['--days']);
    expect(fish('shipper quote list --js')).toEqual(['--json']);
    expect(fish('shipper --vers')).toEqual(['--version']);
    expect(fish('shipper quote --vers')).toEqual([]);
  });
});
