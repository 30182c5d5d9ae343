/**
 * A process that uses the store lock, for the tests that need real processes (bundled by
 * test/helpers/bundle.ts, run with node):
 *   lockWorker <lockDir> hold                   takes the lock, prints "locked", waits to be killed
 *   lockWorker <lockDir> count <file> <n> <log>  n times: under the lock, reads the number in
 *                                                <file>, waits a little, writes it plus one, and
 *                                                logs "enter <pid>" / "exit <pid>" around it
 */
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { acquireLock } from '../../src/store/file/storeLock.js';

const [lockDir, mode, file, times, log] = process.argv.slice(2);

if (mode === 'hold') {
  await acquireLock(lockDir!);
  process.stdout.write('locked\n');
  setInterval(() => undefined, 1_000_000);
} else if (mode === 'count') {
  for (let index = 0; index < Number(times); index++) {
    const release = await acquireLock(lockDir!);
    appendFileSync(log!, `enter ${process.pid}\n`);
    const value = Number(readFileSync(file!, 'utf8') || '0');
    // A pause inside the critical section: two holders at once would lose an increment.
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 3));
    writeFileSync(file!, String(value + 1));
    appendFileSync(log!, `exit ${process.pid}\n`);
    await release();
  }
  process.stdout.write('done\n');
} else {
  process.stderr.write(`usage: lockWorker <lockDir> hold | count <file> <n> <log>\n`);
  process.exit(2);
}
