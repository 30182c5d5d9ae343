/**
 * Runs the CLI in this process through `main(argv, streams, env)`, as the GitHub CLI tests its
 * commands: the same program, parsing, output and exit codes as bin/shipper.js, without the
 * ~150 ms of a Node start per case. Spawn the built binary (helpers/cli.ts) only for what needs a
 * real process: signals, concurrency between processes, the bundle itself, terminals.
 */
import { PassThrough } from 'node:stream';
import { main } from '../../src/cli/main.js';
import { ISOLATED_SETTINGS, type CliOptions, type CliResult } from './cli.js';

export interface InProcessOptions extends Omit<CliOptions, 'timeoutMs'> {
  /** Pretend stdout is a terminal of this width (tables; colours stay off with NO_COLOR). */
  columns?: number;
  /** Pretend stderr is a terminal of this width (progress bars). */
  stderrColumns?: number;
}

/** Commands that change the working directory's meaning (`bol` writes there) run one at a time. */
let queue: Promise<unknown> = Promise.resolve();

export function runInProcess(args: string[], options: InProcessOptions = {}): Promise<CliResult> {
  const run = queue.then(() => runNow(args, options));
  queue = run.catch(() => undefined);
  return run;
}

/** runInProcess with `--store <dir>` prepended: the in-process twin of storeCli. */
export function storeInProcess(store: string) {
  return (args: string[], options: InProcessOptions = {}) => runInProcess(['--store', store, ...args], options);
}

async function runNow(args: string[], options: InProcessOptions): Promise<CliResult> {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', ...ISOLATED_SETTINGS, ...options.env };
  for (const key of Object.keys(env)) if (env[key] === undefined) delete env[key];
  let stdout = '';
  let stderr = '';
  const out = Object.assign(new PassThrough(), { isTTY: options.columns !== undefined, columns: options.columns });
  const err = Object.assign(new PassThrough(), { isTTY: options.stderrColumns !== undefined, columns: options.stderrColumns });
  out.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  err.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const stdin = Object.assign(new PassThrough(), { isTTY: false });
  stdin.end(options.input ?? '');
  const previous = process.cwd();
  if (options.cwd) process.chdir(options.cwd);
  try {
    const code = await main(args, { stdout: out, stderr: err, stdin }, env);
    // PassThrough delivers 'data' asynchronously: let the last writes arrive.
    await new Promise((resolve) => setImmediate(resolve));
    return { code, stdout, stderr };
  } finally {
    if (options.cwd) process.chdir(previous);
  }
}
