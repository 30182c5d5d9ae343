#!/usr/bin/env node
// Thin launcher: the CLI is bundled into dist/ by `npm install` (the prepare script).
import('../dist/cli/main.js').catch((error) => {
  if (error && error.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist/cli/main.js')) {
    process.stderr.write('shipper: not built yet; run `npm install` (or `npm run build`) in the shipper folder first\n');
  } else {
    process.stderr.write(`shipper: ${error && error.message ? error.message : String(error)}\n`);
  }
  process.exitCode = 70;
});
