/** Shared helpers of the benchmark scripts: timing child processes and printing figures. */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

export const ROOT = process.cwd();
export const BIN = join(ROOT, 'bin', 'shipper.js');

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Median wall time (ms) of running a command `runs` times, after `warmup` untimed runs. */
export function timeCommand(command: string, args: string[], runs: number, env: NodeJS.ProcessEnv = process.env, warmup = 2): number {
  const times: number[] = [];
  for (let i = 0; i < warmup + runs; i++) {
    const start = process.hrtime.bigint();
    const result = spawnSync(command, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    const elapsed = Number(process.hrtime.bigint() - start) / 1e6;
    if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
    if (i >= warmup) times.push(elapsed);
  }
  return median(times);
}

export function row(label: string, value: string): void {
  console.log(`${label.padEnd(44)} ${value}`);
}

/**
 * A figure for `npm run bench`'s table: one `BENCH_FIGURE {json}` line on stdout, next to the
 * human lines. The ratio is value / baseline (same run); the target applies to the value, or to
 * the ratio when `target.of` is 'ratio'.
 */
export interface Figure {
  bench: string;
  name: string;
  value: number;
  unit: string;
  baseline?: { name: string; value: number; unit?: string };
  target?: { op: '<' | '<=' | '>=' | '>' | '='; value: number; of?: 'value' | 'ratio' };
}

export function figure(entry: Figure): void {
  console.log(`BENCH_FIGURE ${JSON.stringify(entry)}`);
}

export interface UrlChild {
  url: string;
  child: ChildProcess;
}

/**
 * Starts a server that prints `{"url": ...}` first on stdout (`shipper serve --json`, a
 * hello-world), and resolves once it has; rejects if it prints something else or exits first.
 */
export async function startUrlChild(command: string, args: string[], options: { env?: NodeJS.ProcessEnv; stderr?: 'inherit' | 'ignore' } = {}): Promise<UrlChild> {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', options.stderr ?? 'ignore'], env: options.env ?? process.env });
  const lines = createInterface({ input: child.stdout! });
  const url = await new Promise<string>((resolve, reject) => {
    let buffer = '';
    lines.on('line', (line) => {
      buffer += line;
      let answer: { url?: string };
      try {
        answer = JSON.parse(buffer) as { url?: string };
      } catch {
        return; // the JSON spans several lines: keep reading
      }
      if (answer.url) resolve(answer.url);
      else reject(new Error(`${command} ${args.join(' ')} did not start: ${buffer}`));
    });
    child.once('exit', (code) => reject(new Error(`${command} ${args.join(' ')} exited ${code}`)));
  });
  return { url, child };
}

/** Sends the signal (unless the child has exited already) and waits for the exit. */
export async function stopChild(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill(signal);
  await exited;
}
