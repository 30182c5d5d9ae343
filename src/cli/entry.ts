/** The bundle's entry (dist/cli/main.js, started by bin/shipper.js). */
import { ExitCode } from '../api/problems.js';
import { main } from './main.js';

// `shipper quote list | head`: a closed pipe ends the output, not the process with a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`shipper: unexpected error: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = ExitCode.local;
  },
);
