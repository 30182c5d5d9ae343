/**
 * Every shell example of the guides (docs/guides/*.md) and of README.md is run: each file's ```sh
 * and ```console commands, in document order, in a fresh store of its own (so earlier steps make
 * what later ones use), with the clock at Mon 2026-11-23 10:00 in Chicago and a copy of the shipped
 * templates/ at hand. Each must exit 0, or the code its trailing comment names (`# exit 6`).
 * A block that cannot run here says why in the markdown (`<!-- not run: REASON -->` right before
 * it); a `$ shipper` line in a block of another language fails, so nothing escapes by its tag.
 *
 * `shipper` runs in process (main(), as the other CLI tests; test/cli/inProcess.test.ts holds it to
 * the binary), except `shipper serve`, which starts as a real process on a free port: the URL the
 * guide gives it (`http://127.0.0.1:8787`) then means that server. `postgres://shipper@db.internal/shipper`
 * means a fresh database on the run's PostgreSQL. Besides shipper, a guide may use `echo` and `jq`
 * (without jq on the machine, a pipeline stops before it, after checking its input is JSON).
 */
import { spawnSync } from 'node:child_process';
import { cp, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { commandNameOf } from '../../src/cli/program.js';
import { ROOT, tempDir } from '../helpers/cli.js';
import { blocksOf, parseLine, type DocExample, type Pipeline, type Script, type SimpleCommand, type Word } from '../helpers/docShell.js';
import { runInProcess } from '../helpers/inProcess.js';
import { testDatabase } from '../helpers/postgres.js';
import { startServe, type ServeProcess } from '../helpers/serve.js';

/** Monday 2026-11-23, 10:00 in Chicago: the calendar the guides' dates and outputs are written for. */
const NOW = '2026-11-23T16:00:00Z';
/** Blocks the guides may leave unrun (each with its reason in the markdown): keep them rare. */
const MOST_NOT_RUN = 4;

const GUIDES_DIR = join(ROOT, 'docs', 'guides');
const guideFiles = async () => [...(await readdir(GUIDES_DIR)).filter((name) => name.endsWith('.md')).map((name) => `docs/guides/${name}`)].sort();
const FILES = [...(await guideFiles()), 'README.md'];

const HAS_JQ = spawnSync('jq', ['--version']).status === 0;
const POSTGRES_PLACEHOLDER = /postgres:\/\/shipper@db\.internal(?::5432)?\/shipper/g;

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

class Session {
  readonly variables = new Map<string, string>();
  readonly servers: ServeProcess[] = [];
  /** Addresses the guide names, and what they are here. */
  readonly replacements: Array<[RegExp | string, string]> = [];
  readonly env: Record<string, string>;

  constructor(readonly dir: string) {
    this.env = { SHIPPER_STORE: join(dir, 'store'), SHIPPER_CONFIG_DIR: join(dir, 'config'), SHIPPER_NOW: NOW };
  }

  async prepare(example: DocExample): Promise<void> {
    if (example.source.match(POSTGRES_PLACEHOLDER) && !this.replacements.some(([from]) => from === POSTGRES_PLACEHOLDER)) {
      this.replacements.push([POSTGRES_PLACEHOLDER, await testDatabase()]);
    }
  }

  private replace(text: string): string {
    return this.replacements.reduce((value, [from, to]) => value.replaceAll(from, to), text);
  }

  async expand(word: Word): Promise<string> {
    let value = '';
    for (const part of word) {
      if ('text' in part) value += part.text;
      else if ('variable' in part) value += this.variables.get(part.variable) ?? this.env[part.variable] ?? '';
      else {
        const result = await this.script(part.substitution);
        if (result.code !== 0) throw new Error(`$(...) exited ${result.code}: ${result.stderr}`);
        value += result.stdout.replace(/\n+$/, '');
      }
    }
    return this.replace(value);
  }

  /**
   * Runs the statements; the result is the last pipeline's. The exit code a comment names is the
   * last shipper command's (in `shipper audit ... --json | jq .summary   # exit 6`, audit's); every
   * other command must exit 0.
   */
  async script(script: Script, expectedCode = 0): Promise<Result> {
    const commands = script.statements.flat(2);
    const target = commands.findLast((command) => {
      const first = command.words[0]?.[0];
      return first !== undefined && 'text' in first && first.text === 'shipper';
    });
    let result: Result = { code: 0, stdout: '', stderr: '' };
    for (const list of script.statements) for (const pipeline of list) result = await this.pipeline(pipeline, target, expectedCode);
    return result;
  }

  private async pipeline(pipeline: Pipeline, target: SimpleCommand | undefined, expectedCode: number): Promise<Result> {
    let input = '';
    let result: Result = { code: 0, stdout: '', stderr: '' };
    for (const command of pipeline) {
      const expected = command === target ? expectedCode : 0;
      const words = await Promise.all(command.words.map((word) => this.expand(word)));
      const assigned = await Promise.all(command.assignments.map(async ({ name, value }) => [name, await this.expand(value)] as const));
      if (words.length === 0) {
        for (const [name, value] of assigned) this.variables.set(name, value);
        continue;
      }
      if (command.stdin) input = await readFile(resolve(this.dir, await this.expand(command.stdin)), 'utf8');
      const [program, ...args] = words;
      if (program === 'shipper') {
        result = commandNameOf(args) === 'serve' ? await this.serve(args, Object.fromEntries(assigned)) : await this.shipper(args, Object.fromEntries(assigned), input);
      } else if (program === 'echo') {
        result = { code: 0, stdout: `${args.join(' ')}\n`, stderr: '' };
      } else if (program === 'jq') {
        if (!HAS_JQ) {
          expect(() => JSON.parse(input), 'the input of jq').not.toThrow();
          return { code: 0, stdout: '', stderr: '' };
        }
        const jq = spawnSync('jq', args, { input, encoding: 'utf8' });
        result = { code: jq.status ?? 1, stdout: jq.stdout, stderr: jq.stderr };
      } else {
        throw new Error(`${program} is not a command this test runs: mark the block <!-- not run: REASON --> or write it with shipper`);
      }
      expect(result.code, `${words.join(' ')}\n${result.stderr}`).toBe(expected);
      if (command.stdout) await writeFile(resolve(this.dir, await this.expand(command.stdout)), result.stdout);
      if (command.stderr) await writeFile(resolve(this.dir, await this.expand(command.stderr)), result.stderr);
      input = command.stdout ? '' : result.stdout;
    }
    return result;
  }

  private shipper(args: string[], env: Record<string, string>, input: string): Promise<Result> {
    return runInProcess(args, { env: { ...this.env, ...env }, cwd: this.dir, input });
  }

  /** `shipper serve --port N ...`: a real server on a free port, which the guide's URLs with port N then reach. */
  private async serve(args: string[], env: Record<string, string>): Promise<Result> {
    const at = args.indexOf('serve');
    const serveArgs = args.slice(at + 1);
    const portAt = serveArgs.indexOf('--port');
    const port = portAt >= 0 ? serveArgs.splice(portAt, 2)[1] : '8787';
    const server = await startServe({ store: this.env.SHIPPER_STORE!, globalArgs: args.slice(0, at), serveArgs, env: { ...this.env, ...env } });
    this.servers.push(server);
    this.replacements.push([`http://127.0.0.1:${port}`, server.url], [`http://localhost:${port}`, server.url]);
    return { code: 0, stdout: '', stderr: '' };
  }

  async close(): Promise<void> {
    await Promise.all(this.servers.map((server) => server.stop()));
  }
}

describe('the shell examples of the guides and the README', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => Promise.all(cleanups.map((cleanup) => cleanup())));

  it('are all in ```sh or ```console blocks, each block run or saying why not, and few not run', async () => {
    let notRun = 0;
    let examples = 0;
    for (const file of FILES) {
      for (const block of blocksOf(await readFile(join(ROOT, file), 'utf8'))) {
        const where = `${file}:${block.line}`;
        expect(['sh', 'console'], `${where}: a \`$ shipper\` line in a \`\`\`${block.language} block (write \`\`\`console)`).toContain(block.language);
        if (block.notRun !== undefined) {
          expect(block.notRun, `${where}: <!-- not run: --> gives no reason`).not.toBe('');
          notRun++;
        } else examples += block.examples.length;
      }
    }
    expect(notRun).toBeLessThanOrEqual(MOST_NOT_RUN);
    expect(examples).toBeGreaterThan(50);
  });

  it('link every guide from the README', async () => {
    const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
    for (const file of await guideFiles()) expect(readme, file).toContain(`](${file})`);
  });

  it.each(FILES)('%s: every example runs, in order, in a store of its own', async (file) => {
    const { dir, cleanup } = await tempDir('shipper-guide-');
    cleanups.push(cleanup);
    // A copy: a guide's reject file or output next to a sample stays out of the repository.
    await cp(join(ROOT, 'templates'), join(dir, 'templates'), { recursive: true });
    await mkdir(join(dir, 'config'));
    const session = new Session(dir);
    try {
      for (const block of blocksOf(await readFile(join(ROOT, file), 'utf8'))) {
        if (block.notRun !== undefined) continue;
        for (const example of block.examples) {
          await session.prepare(example);
          try {
            await session.script(example.script, example.expectedCode);
          } catch (error) {
            (error as Error).message = `${file}:${example.line}: ${example.source}\n${(error as Error).message}`;
            throw error;
          }
        }
      }
    } finally {
      await session.close();
    }
  });
});

describe('the shell of the examples', () => {
  const words = (line: string) =>
    parseLine(line).statements[0]![0]![0]!.words.map((word) => word.map((part) => ('text' in part ? part.text : 'variable' in part ? `<${part.variable}>` : '<$()>')).join(''));

  it('reads quotes, backslashes, variables and substitutions as the shell does', () => {
    expect(words(`shipper ship -c 'pallets=1,desc=Paint, pails' --consignee name="Peach Supply Co",zip=30303 --ref "$REF" a\\ b`)).toEqual([
      'shipper',
      'ship',
      '-c',
      'pallets=1,desc=Paint, pails',
      '--consignee',
      'name=Peach Supply Co,zip=30303',
      '--ref',
      '<REF>',
      'a b',
    ]);
    expect(words(`shipper quote get "$(shipper -q quote list --limit 1)" x#y`)).toEqual(['shipper', 'quote', 'get', '<$()>', 'x#y']);
    expect(words(`echo '$HOME' "\\$5" ""`)).toEqual(['echo', '$HOME', '$5', '']);
  });

  it('reads assignments, pipes, redirections, && and comments', () => {
    const script = parseLine('Q=$(shipper -q quote --from 60601) && SHIPPER_NOW=x shipper ship --quote "$Q" | jq .id > out.json   # exit 1, then more');
    expect(script.comment).toBe('exit 1, then more');
    const [assignment, pipeline] = script.statements[0]!;
    expect(assignment![0]!.assignments.map((item) => item.name)).toEqual(['Q']);
    expect(assignment![0]!.words).toEqual([]);
    expect(pipeline).toHaveLength(2);
    expect(pipeline![0]!.assignments[0]).toEqual({ name: 'SHIPPER_NOW', value: [{ text: 'x' }] });
    expect(pipeline![1]!.stdout).toEqual([{ text: 'out.json' }]);
    expect(() => parseLine('shipper quote &')).toThrow(/not supported/);
    expect(() => parseLine("shipper 'unclosed")).toThrow(/unclosed/);
  });

  it('finds the commands of sh and console blocks, joins continued lines, and reads not-run marks and exit codes', () => {
    const markdown = [
      '```sh',
      '# a comment line',
      'shipper quote --from 60601 \\',
      '  --to 10001   # exit 2',
      '```',
      '',
      '<!-- not run: needs a terminal -->',
      '```console',
      '$ shipper quote',
      'Quote LTL freight step by step.',
      '```',
      '```',
      '$ shipper transit --from 60601',
      '```',
      '```json',
      '{"shipper": 1}',
      '```',
    ].join('\n');
    const blocks = blocksOf(markdown);
    expect(blocks.map((block) => [block.line, block.language, block.notRun])).toEqual([
      [1, 'sh', undefined],
      [8, 'console', 'needs a terminal'],
      [12, '', undefined],
    ]);
    expect(blocks[0]!.examples).toMatchObject([{ line: 3, expectedCode: 2 }]);
    expect(words(blocks[0]!.examples[0]!.source.replace(/\\?\n\s*/g, ' '))).toEqual(['shipper', 'quote', '--from', '60601', '--to', '10001']);
    expect(blocks[1]!.examples.map((example) => example.source)).toEqual(['shipper quote']);
  });
});
