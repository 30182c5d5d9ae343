#!/usr/bin/env node
// Thin launcher: the CLI is bundled into dist/ by `npm install` (the prepare script).
import module from 'node:module';

// Node 22.1+ keeps V8's compiled code of the bundle between runs (in the OS's temporary
// directory): most of a command's start-up is compiling zod and the CLI. Node 20 has no such cache.
module.enableCompileCache?.();

import('../dist/cli/main.js').catch((error) => {
  if (error && error.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist/cli/main.js')) {
    process.stderr.write('shipper: not built yet; run `npm install` (or `npm run build`) in the shipper folder first\n');
  } else {
    process.stderr.write(`shipper: ${error && error.message ? error.message : String(error)}\n`);
  }
  process.exitCode = 70;
});
