/**
 * The bundle's entry (dist/cli/main.js, started by bin/shipper.js). `shipper --version` is
 * answered here, from the version baked in at build time, without loading commander and the
 * commands; every other command line loads the program (src/cli/main.ts) and runs it.
 */
import { printable } from '../printable.js';
import { versionText } from './version.js';

// `shipper quote list | head`: a closed pipe ends the output, not the process with a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  // What commander prints for it (the program declares the same text): the version, then a newline.
  process.stdout.write(`${versionText()}\n`);
} else {
  const [{ main }, { ExitCode }] = await Promise.all([import('./main.js'), import('../api/problems.js')]);
  main(argv).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`shipper: unexpected error: ${printable(error instanceof Error ? error.message : String(error))}\n`);
      process.exitCode = ExitCode.local;
    },
  );
}
