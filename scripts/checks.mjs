// The static checks of `npm test`, at the same time rather than one after another: the type check,
// ESLint, Prettier and knip are each single-threaded, so on two cores two run at once. Each one's
// output is printed when it ends (a failing one's in full); the exit code is non-zero if any fails.
//   node scripts/checks.mjs
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => join(root, 'node_modules', '.bin', name);
const CHECKS = [
  ['tsc --noEmit', bin('tsc'), ['--noEmit']],
  ['eslint .', bin('eslint'), ['.']],
  ['prettier --check .', bin('prettier'), ['--check', '.', '--log-level', 'warn']],
  ['knip', bin('knip'), []],
];

const run = ([name, command, args]) =>
  new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', (error) => resolve({ name, code: 1, output: `${output}${error.message}\n`, seconds: 0 }));
    child.on('close', (code) => resolve({ name, code: code ?? 1, output, seconds: (Date.now() - started) / 1000 }));
  });

const results = await Promise.all(CHECKS.map(run));
let failed = 0;
for (const { name, code, output, seconds } of results) {
  if (code === 0) console.log(`ok   ${name} (${seconds.toFixed(1)} s)`);
  else {
    failed++;
    console.log(`FAIL ${name} (exit ${code})\n${output.trimEnd()}\n`);
  }
}
process.exit(failed > 0 ? 1 : 0);
