// Runs a TypeScript bench without a TS loader (Node 20 has none built in): bundles bench/<name>.ts
// (or a .ts path) with esbuild into .tmp/ and runs it with this Node. Packages stay external, so
// they load from node_modules exactly as the app loads them.
//   node bench/run.mjs bol [args...]
//   node bench/run.mjs all [names...]   (npm run bench) every bench, one after another, then one
//                                        Markdown table of their figures in bench/out/RESULTS.md
import { build } from 'esbuild';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/** The order of `all`: the quick start-up figures first, the long and disk-heavy ones last. */
const ORDER = ['startup', 'quote', 'rates', 'transit', 'wizard', 'store', 'bol', 'labels', 'edi', 'audit', 'track', 'import', 'serve', 'crash', 'postgres'];
/** `all` is every script in bench/ (a new one is never left out), in ORDER, others before the last two. */
const scripts = readdirSync(join(root, 'bench'))
  .filter((name) => name.endsWith('.ts') && name !== 'lib.ts')
  .map((name) => basename(name, '.ts'));
const rank = (name) => (ORDER.includes(name) ? ORDER.indexOf(name) : ORDER.length - 2.5);
const ALL = scripts.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
const [target, ...args] = process.argv.slice(2);
if (!target) {
  console.error('usage: node bench/run.mjs <name | path/to/script.ts | all [names...]> [args...]');
  process.exit(2);
}

async function bundle(entry) {
  const outfile = join(root, '.tmp', `bench-${basename(entry, '.ts')}.mjs`);
  await build({ entryPoints: [entry], outfile, bundle: true, format: 'esm', platform: 'node', target: 'node20', packages: 'external', logLevel: 'warning' });
  return outfile;
}

/** Runs one bench, its output streamed through; resolves with its exit code and its figures. */
async function run(name, scriptArgs) {
  const entry = name.endsWith('.ts') ? resolve(name) : join(root, 'bench', `${name}.ts`);
  if (!existsSync(entry)) {
    console.error(`bench/run.mjs: no such script ${entry}`);
    process.exit(2);
  }
  const child = spawn(process.execPath, ['--expose-gc', await bundle(entry), ...scriptArgs], { stdio: ['ignore', 'pipe', 'inherit'], cwd: root });
  const figures = [];
  let pending = '';
  child.stdout.setEncoding('utf8').on('data', (chunk) => {
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop();
    for (const line of lines) {
      if (line.startsWith('BENCH_FIGURE ')) figures.push(JSON.parse(line.slice('BENCH_FIGURE '.length)));
      else process.stdout.write(`${line}\n`);
    }
  });
  const code = await new Promise((done) => child.on('close', (status) => done(status ?? 1)));
  if (pending) process.stdout.write(pending);
  return { code, figures };
}

const number = (value, unit) => {
  const digits = Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : 2;
  return `${value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0 })}${unit ? ` ${unit}` : ''}`;
};

function verdict(entry, ratio) {
  if (!entry.target) return ['', ''];
  const { op, value, of = 'value' } = entry.target;
  const measured = of === 'ratio' ? ratio : entry.value;
  const shown = of === 'ratio' ? `${op} ${value}x` : `${op} ${number(value, entry.unit)}`;
  if (measured === undefined) return [shown, '?'];
  const met = op === '<' ? measured < value : op === '<=' ? measured <= value : op === '>=' ? measured >= value : op === '>' ? measured > value : measured === value;
  return [shown, met ? 'yes' : '**no**'];
}

export function table(figures) {
  const rows = ['| Figure | Value | Baseline (same run) | Ratio | Target | Met |', '|---|---|---|---|---|---|'];
  for (const entry of figures) {
    const ratio = entry.baseline && entry.baseline.value > 0 ? entry.value / entry.baseline.value : undefined;
    const [targetText, met] = verdict(entry, ratio);
    rows.push(
      `| \`${entry.bench}\` ${entry.name} | ${number(entry.value, entry.unit)} | ${entry.baseline ? `${entry.baseline.name}: ${number(entry.baseline.value, entry.baseline.unit ?? entry.unit)}` : ''} | ${ratio === undefined ? '' : `${ratio.toFixed(2)}x`} | ${targetText} | ${met} |`,
    );
  }
  return rows.join('\n');
}

if (target === 'all') {
  const names = args.length > 0 ? args : ALL;
  const figures = [];
  const failed = [];
  const started = Date.now();
  for (const name of names) {
    console.log(`\n=== bench ${name}`);
    const result = await run(name, []);
    figures.push(...result.figures);
    if (result.code !== 0) failed.push(`${name} (exit ${result.code})`);
  }
  const when = new Date().toISOString().slice(0, 16).replace('T', ' ');
  const minutes = ((Date.now() - started) / 60000).toFixed(1);
  const markdown = `# npm run bench\n\n${when} UTC, Node ${process.version}, ${process.platform}/${process.arch}, ${minutes} min.${failed.length > 0 ? ` Failed: ${failed.join(', ')}.` : ''}\n\n${table(figures)}\n`;
  mkdirSync(join(root, 'bench', 'out'), { recursive: true });
  writeFileSync(join(root, 'bench', 'out', 'RESULTS.md'), markdown);
  console.log(`\n${markdown}\n(bench/out/RESULTS.md)`);
  process.exit(failed.length > 0 ? 1 : 0);
} else {
  const result = await run(target, args);
  if (result.figures.length > 0) console.log(`\n${table(result.figures)}`);
  process.exit(result.code);
}
