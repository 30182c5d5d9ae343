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
  const [{ main }, { ExitCode }, { redactDatabaseUrls }] = await Promise.all([import('./main.js'), import('../api/problems.js'), import('../config/storeLocation.js')]);
  // Other local users read a process's arguments (ps, /proc/PID/cmdline) for as long as it runs:
  // from here on they read the command line without a database URL's password or an API key.
  // (Node writes the title over the arguments' own memory, all of it; what was read stays in argv.)
  process.title = ['shipper', ...argv.map((arg, index) => (argv[index - 1] === '--api-key' ? '****' : redactDatabaseUrls(arg.replace(/^(--api-key=).*/s, '$1****'))))].join(' ');
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
