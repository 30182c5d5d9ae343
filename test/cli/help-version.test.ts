/**
 * `shipper help environment` names every variable the source reads; `--version` says the commit
 * and the build date baked in at build time (or that there is no commit); every command's help
 * has examples.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildInfo } from '../../scripts/buildInfo.mjs';
import { buildProgram, commandNameOf } from '../../src/cli/program.js';
import { VERSION, versionText } from '../../src/cli/version.js';
import { ENVIRONMENT } from '../../src/cli/environmentHelp.js';
import { ROOT, runCli, tempDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inProcess.js';

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('shipper-help-'));
});
afterAll(() => cleanup());

async function sourceFiles(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true });
  const files = await Promise.all(
    entries.map((entry) => (entry.isDirectory() ? sourceFiles(join(folder, entry.name)) : entry.name.endsWith('.ts') ? [join(folder, entry.name)] : [])),
  );
  return files.flat();
}

/** Every environment variable the source reads or tells people to set. */
async function variablesInSource(): Promise<Set<string>> {
  const names = new Set<string>();
  for (const file of await sourceFiles(join(ROOT, 'src'))) {
    if (file.endsWith('environmentHelp.ts')) continue;
    const text = await readFile(file, 'utf8');
    for (const match of text.matchAll(
      /\benv\.([A-Z][A-Z0-9_]+)|\benv\[['"]([A-Z][A-Z0-9_]+)['"]\]|['"]([A-Z][A-Z0-9_]+)['"] in env|\.env\(['"]([A-Z][A-Z0-9_]+)['"]\)|\b(SHIPPER_[A-Z0-9_]+)\b/g,
    )) {
      names.add(match.slice(1).find(Boolean)!);
    }
  }
  return names;
}

describe('shipper help environment', () => {
  it('lists every variable the source reads, each with what it does', async () => {
    const result = await runInProcess(['help', 'environment']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const found = await variablesInSource();
    // The grep must find what we know is read, or it proves nothing.
    for (const known of ['SHIPPER_STORE', 'SHIPPER_NOW', 'NO_COLOR', 'CI', 'TERM', 'XDG_CONFIG_HOME', 'HOME', 'SHIPPER_DEBUG']) expect(found).toContain(known);
    for (const name of found) expect(result.stdout, name).toMatch(new RegExp(`^  (${name}|\\S+, ${name}|${name}, \\S+)\\s+\\S`, 'm'));
    const documented = ENVIRONMENT.flatMap((group) => group.variables);
    for (const variable of documented) expect(variable.what.length).toBeGreaterThan(10);
    // Precedence is said wherever a flag or the config sets the same thing.
    expect(result.stdout).toMatch(/SHIPPER_STORE\s+.*\n?.*--store beats it/);
    expect(result.stdout).toMatch(/Flags beat them; they beat the config file/);
  });

  it('fits the terminal and is also `shipper environment --help`; the root help points to it', async () => {
    const narrow = await runInProcess(['help', 'environment'], { columns: 80 });
    for (const line of narrow.stdout.split('\n')) expect(line.length).toBeLessThanOrEqual(100);
    expect((await runInProcess(['environment', '--help'])).stdout).toBe((await runInProcess(['help', 'environment'])).stdout);
    const root = await runInProcess(['--help']);
    expect(root.stdout).toContain('shipper help environment');
    // A topic, not a command: not in the list of commands.
    expect(root.stdout).not.toMatch(/^\s+environment\b/m);
  });
});

describe('--version', () => {
  it("is package.json's version, first on the line", async () => {
    const manifest = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(VERSION).toBe(manifest.version);
    const result = await runInProcess(['--version']);
    expect(result).toMatchObject({ code: 0, stdout: `${manifest.version} (run from the sources: no build information)\n` });
    expect((await runInProcess(['-V'])).stdout).toBe(result.stdout);
  });

  it('says the commit, uncommitted changes and the build date, or that there is no commit', () => {
    const build = { version: '1.2.3', commit: '570c5fb1a2b3', modified: false, date: '2026-11-23T15:00:00Z' };
    expect(versionText(build)).toBe('1.2.3 (commit 570c5fb1a2b3, built 2026-11-23T15:00:00Z)');
    expect(versionText({ ...build, modified: true })).toBe('1.2.3 (commit 570c5fb1a2b3 with uncommitted changes, built 2026-11-23T15:00:00Z)');
    expect(versionText({ ...build, commit: null })).toBe('1.2.3 (built 2026-11-23T15:00:00Z outside a git checkout: commit unknown)');
  });

  it('the build reads the commit of a checkout, none outside one or inside another repository, and honours SOURCE_DATE_EPOCH', async () => {
    const info = buildInfo(ROOT, { SOURCE_DATE_EPOCH: '1700000000' });
    expect(info.date).toBe('2023-11-14T22:13:20Z');
    expect(info.version).toBe(VERSION);
    let head: string | undefined;
    try {
      head = execFileSync('git', ['-C', ROOT, 'rev-parse', '--short=12', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    } catch {
      head = undefined; // a tarball: then the build has no commit either
    }
    expect(info.commit).toBe(head ?? null);

    const tarball = join(dir, 'unpacked');
    await mkdir(tarball);
    await writeFile(join(tarball, 'package.json'), JSON.stringify({ name: 'shipper', version: '9.9.9' }));
    expect(buildInfo(tarball, {})).toMatchObject({ version: '9.9.9', commit: null, modified: false, date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/) });

    // node_modules/shipper inside someone's repository: that repository's commit is not shipper's.
    const project = join(dir, 'project');
    const nested = join(project, 'node_modules', 'shipper');
    await mkdir(nested, { recursive: true });
    await writeFile(join(nested, 'package.json'), JSON.stringify({ name: 'shipper', version: '9.9.9' }));
    try {
      execFileSync('git', ['init', '-q', project], { stdio: 'ignore' });
      execFileSync('git', ['-C', project, '-c', 'user.email=t@example.com', '-c', 'user.name=t', 'commit', '-q', '--allow-empty', '-m', 'x'], { stdio: 'ignore' });
    } catch {
      return; // no git on this machine: nothing more to check
    }
    expect(buildInfo(nested, {}).commit).toBeNull();
  });

  it('the built binary prints the commit and date baked in at build time, a commit of this repository', async () => {
    const result = await runCli(['--version']);
    expect(result.code).toBe(0);
    const match = /^(\d+\.\d+\.\d+) \((?:commit ([0-9a-f]{12})(?: with uncommitted changes)?, built (\S+)|built (\S+) outside a git checkout: commit unknown)\)\n$/.exec(
      result.stdout,
    );
    expect(match, result.stdout).not.toBeNull();
    expect(match![1]).toBe(VERSION);
    expect(Date.parse(match![3] ?? match![4]!)).not.toBeNaN();
    const commit = match![2];
    if (commit)
      execFileSync('git', ['-C', ROOT, 'cat-file', '-e', `${commit}^{commit}`], { stdio: 'ignore' }); // throws when it is not one of ours
    else expect(buildInfo(ROOT).commit).toBeNull();
  });
});

describe('the command a command line names (only its group is loaded)', () => {
  it('is the first word that is not a global option or its value', () => {
    expect(commandNameOf(['quote', '--from', '60601'])).toBe('quote');
    expect(commandNameOf(['--store', '/tmp/s', '--json', 'ship', '-c', 'x'])).toBe('ship');
    expect(commandNameOf(['--api-key', 'quote', 'shipment', 'get'])).toBe('shipment');
    expect(commandNameOf(['--help'])).toBeUndefined();
    expect(commandNameOf(['--', 'quote'])).toBeUndefined();
    expect(commandNameOf([])).toBeUndefined();
  });

  it('still suggests a command for a mistyped one, and root help lists every command', async () => {
    const typo = await runInProcess(['qoute']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('quote');
    const help = await runInProcess(['--help']);
    for (const name of ['quote', 'transit', 'ship', 'shipment', 'import', 'bol', 'tender', 'audit', 'serve', 'config', 'completion']) expect(help.stdout).toContain(`  ${name}`);
  });
});

describe('help', () => {
  it('every command and subcommand leads its help with examples: after the usage and description, before the arguments, options and commands', async () => {
    const program = await buildProgram({ stdout: process.stdout, stderr: process.stderr, stdin: process.stdin }, process.env, []);
    const paths: string[][] = [];
    const visit = (command: Command, path: string[]) => {
      if ((command as unknown as { _hidden?: boolean })._hidden) return;
      paths.push(path);
      for (const sub of command.commands) visit(sub, [...path, sub.name()]);
    };
    visit(program, []);
    expect(paths.length).toBeGreaterThan(30);
    for (const path of paths) {
      const result = await runInProcess([...path, '--help']);
      expect(result.code, path.join(' ')).toBe(0);
      const help = `shipper ${path.join(' ')} --help`;
      expect(result.stdout, help).toMatch(/\nExamples?:\n(\s+\$ \S.*\n)+/);
      // Usage, the description, then the examples: no other section comes before them.
      const examplesAt = result.stdout.search(/\nExamples?:\n/);
      expect(result.stdout.startsWith('Usage: '), help).toBe(true);
      expect(result.stdout.slice(0, examplesAt), help).not.toMatch(/\n(Arguments|Options|Commands):\n/);
      for (const later of ['Arguments', 'Options', 'Commands']) {
        const at = result.stdout.indexOf(`\n${later}:\n`);
        if (at >= 0) expect(at, `${help}: Examples before ${later}`).toBeGreaterThan(examplesAt);
      }
    }
  });
});
