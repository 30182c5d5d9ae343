/**
 * Starts the built `shipper serve` as a user would (a child process on a free loopback port) and
 * hands back its URL, its stderr so far, and a stop that sends a signal and waits for the exit.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { BIN, ISOLATED_SETTINGS, ROOT } from './cli.js';

export interface ServeProcess {
  url: string;
  /** What serve printed on stdout with --json ({url, store, adminUrl, ...}). */
  started: Record<string, unknown>;
  child: ChildProcess;
  /** Everything the server wrote on stderr so far (access log, notices). */
  stderr(): string;
  /** What it wrote on stdout (with --json: where it listens, whether it is an open sandbox). */
  stdout(): string;
  /** Sends the signal and resolves with the exit code (128 + n when killed by a signal). */
  stop(signal?: NodeJS.Signals): Promise<number>;
}

export interface ServeOptions {
  store: string;
  /** Global flags before `serve`, e.g. ['--api-key', 'k']. */
  globalArgs?: string[];
  /** Flags after `serve`. */
  serveArgs?: string[];
  env?: Record<string, string | undefined>;
}

export async function startServe(options: ServeOptions): Promise<ServeProcess> {
  // The human log and no drain delay, as the tests written before them expect; a test of either sets its own.
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', SHIPPER_LOG: 'pretty', SHIPPER_DRAIN_DELAY: '0', ...ISOLATED_SETTINGS, ...options.env };
  for (const key of Object.keys(env)) if (env[key] === undefined) delete env[key];
  const args = [BIN, '--store', options.store, '--json', ...(options.globalArgs ?? []), 'serve', '--port', '0', ...(options.serveArgs ?? [])];
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number>((resolve) => child.once('exit', (code, signal) => resolve(code ?? (signal ? 128 : 1))));

  const started = await new Promise<Record<string, unknown>>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`shipper serve did not start within 15 s: ${stderr}`)), 15_000);
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      try {
        const printed = JSON.parse(stdout) as Record<string, unknown>;
        clearTimeout(timer);
        resolve(printed);
      } catch {
        // not the whole JSON yet
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`shipper serve exited ${code} before listening: ${stderr}`));
    });
  });

  return {
    url: started.url as string,
    started,
    child,
    stderr: () => stderr,
    stdout: () => stdout,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}
