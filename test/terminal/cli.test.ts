/** Terminal conventions of the CLI (in process): no prompts without a TTY, one-line errors, completion, help. */
import { spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { runInProcess, storeInProcess } from '../helpers/inProcess.js';

let dir: string;
let cleanup: () => Promise<void>;
let cli: ReturnType<typeof storeInProcess>;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('shipper-terminal-'));
  cli = storeInProcess(join(dir, 'store'));
});
afterAll(async () => cleanup());

describe('without a terminal', () => {
  it('shipper quote never prompts: exit 2 naming the missing flags', async () => {
    const result = await cli(['quote'], { input: '60601\n' });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^shipper: missing --from ZIP, --to ZIP, --component SPEC \(example: shipper quote /);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('shipper quote -i fails the same way, also when only some flags are missing', async () => {
    const some = await cli(['quote', '-i', '--from', '60601']);
    expect(some.code).toBe(2);
    expect(some.stderr).toMatch(/^shipper: missing --to ZIP, --component SPEC/);
    const all = await cli(['quote', '-i', '--from', '60601', '--to', '10001', '-c', 'pallets=1,weight=500,dims=48x40x40']);
    expect(all.code).toBe(2);
    expect(all.stderr).toMatch(/^shipper: --interactive needs a terminal/);
  });
});

describe('errors', () => {
  it('an unknown option of a subcommand is one line and exit 2', async () => {
    const result = await cli(['transit', '--fro', '60601']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe("shipper: unknown option '--fro' (Did you mean --from?)\n");
  });

  it('violations are one line each naming the field, never a stack trace', async () => {
    const result = await cli(['quote', '--from', '00000', '--to', '10001', '-c', 'pallets=1,weight=500,dims=48x40x40,pieces=-1']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('shipper: pieceCount must be 0 or more (orderComponents[0].pieceCount); unknown ZIP 00000 (pickupAddress.zipCode)\n');
  });
});

describe('shipper completion', () => {
  it('prints a bash script that completes commands, subcommands, flags and values', async () => {
    const result = await runInProcess(['completion', 'bash']);
    expect(result.code).toBe(0);
    const script = join(dir, 'shipper.bash');
    await writeFile(script, result.stdout);
    const complete = (words: string[]) => {
      const line = words.map((word) => `'${word}'`).join(' ');
      const probe = `source '${script}'; COMP_WORDS=(${line}); COMP_CWORD=${words.length - 1}; _shipper; printf '%s\\n' "\${COMPREPLY[@]}"`;
      const run = spawnSync('bash', ['-c', probe], { encoding: 'utf8' });
      expect(run.stderr).toBe('');
      return run.stdout.split('\n').filter(Boolean);
    };
    expect(complete(['shipper', ''])).toEqual(expect.arrayContaining(['quote', 'transit', 'completion']));
    expect(complete(['shipper', 'tr'])).toEqual(['transit', 'track']);
    expect(complete(['shipper', 'track', ''])).toEqual(['import']);
    expect(complete(['shipper', 'quote', ''])).toEqual(['get', 'list']);
    expect(complete(['shipper', '--json', 'transit', '--d'])).toEqual(['--days']);
    expect(complete(['shipper', 'quote', '--accessorial', 'LIFTGATE_'])).toEqual(['LIFTGATE_PICKUP', 'LIFTGATE_DELIVERY']);
    expect(complete(['shipper', 'completion', ''])).toEqual(['bash', 'zsh', 'fish']);
    expect(complete(['shipper', 'transit', '--to', join(dir, 'shipper.b')])).toEqual([script]);
    expect(complete(['shipper', 'quote', '--from', ''])).toEqual([]);
  });

  it('prints a zsh script built from the same commands', async () => {
    const result = await runInProcess(['completion', 'zsh']);
    expect(result.code).toBe(0);
    expect(result.stdout.startsWith('#compdef shipper\n')).toBe(true);
    expect(result.stdout).toContain("'transit:table of transit days and ETAs");
    expect(result.stdout).toContain("'--days:show the next N pickup");
    expect(result.stdout).toContain('compdef _shipper shipper');
    // The script parses as shell (zsh syntax is a superset of what it uses here).
    const syntax = spawnSync('bash', ['-n'], { input: result.stdout.replace(/^\s*compdef .*$/m, ':'), encoding: 'utf8' });
    expect(syntax.stderr).toBe('');
  });

  it('refuses an unknown shell with exit 2', async () => {
    const result = await runInProcess(['completion', 'powershell']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^shipper: .*powershell.*bash, zsh, fish/);
  });
});

describe('--help', () => {
  it('lists examples for the wizard, transit and completion', async () => {
    for (const command of [['quote'], ['transit'], ['completion'], []]) {
      const result = await runInProcess([...command, '--help']);
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/Examples?:\n\s+\$ \S/);
    }
  });
});
