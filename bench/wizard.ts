/**
 * Time from `shipper quote` (no flags, in a pseudo-terminal) to its first prompt on screen, against
 * the time of `shipper --version` to exit, both measured in this run. @inquirer/prompts is loaded
 * only by the wizard, so commands without prompts do not pay for it.
 * Run: npm run build && node bench/run.mjs wizard
 */
import { spawn } from '@lydell/node-pty';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, figure, median, row, timeCommand } from './lib.js';

const RUNS = Number(process.argv[2] ?? 15);
const work = mkdtempSync(join(tmpdir(), 'shipper-bench-wizard-'));
const env: Record<string, string> = {};
for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
Object.assign(env, { TERM: 'xterm-256color', SHIPPER_STORE: join(work, 'store') });

function timeToFirstPrompt(): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(process.execPath, [BIN, 'quote'], { cols: 100, rows: 30, cwd: work, env });
    let seen = '';
    let ms: number | undefined;
    const timer = setTimeout(() => reject(new Error(`no prompt after 10 s: ${JSON.stringify(seen)}`)), 10_000);
    child.onExit(() => {
      clearTimeout(timer);
      if (ms === undefined) reject(new Error(`exited before the prompt: ${JSON.stringify(seen)}`));
      else resolve(ms);
    });
    child.onData((data) => {
      seen += data;
      if (ms === undefined && seen.includes('Pickup ZIP')) {
        ms = Number(process.hrtime.bigint() - start) / 1e6;
        child.write('\u0003');
      }
    });
  });
}

try {
  const baseline = timeCommand(process.execPath, [BIN, '--version'], RUNS, env);
  const times: number[] = [];
  for (let i = 0; i < RUNS + 2; i++) {
    const ms = await timeToFirstPrompt();
    if (i >= 2) times.push(ms);
  }
  const wizard = median(times);
  console.log(`shipper quote wizard, median of ${RUNS} runs (Node ${process.version})`);
  row('baseline: shipper --version', `${baseline.toFixed(0)} ms`);
  row('shipper quote: first prompt on screen', `${wizard.toFixed(0)} ms  (${(wizard / baseline).toFixed(2)}x baseline, +${(wizard - baseline).toFixed(0)} ms)`);
  figure({ bench: 'wizard', name: 'first prompt on screen (pseudo-terminal)', value: wizard, unit: 'ms', baseline: { name: 'shipper --version', value: baseline } });
} finally {
  rmSync(work, { recursive: true, force: true });
}
