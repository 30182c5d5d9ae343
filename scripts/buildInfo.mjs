// What `shipper --version` says beyond the version: the git commit the bundle was built from and
// when. Baked into the bundle by build.mjs (esbuild `define`), so the installed CLI never runs git.
import { execFileSync } from 'node:child_process';
import { readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';

/**
 * @param {string} root the package root (where package.json is)
 * @param {NodeJS.ProcessEnv} env SOURCE_DATE_EPOCH (seconds) fixes the build date, for reproducible builds
 * @returns {{ version: string, commit: string | null, modified: boolean, date: string }}
 *   commit: null when root is not the top of a git checkout (a tarball, or a folder inside
 *   someone else's repository, whose commit says nothing of shipper)
 */
export function buildInfo(root, env = process.env) {
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const git = (...args) => execFileSync('git', ['-C', root, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  let commit = null;
  let modified = false;
  try {
    if (realpathSync(git('rev-parse', '--show-toplevel')) === realpathSync(root)) {
      commit = git('rev-parse', '--short=12', 'HEAD');
      modified = git('status', '--porcelain', '--untracked-files=no') !== '';
    }
  } catch {
    // no git, or not a checkout
  }
  const epoch = Number(env.SOURCE_DATE_EPOCH);
  const date = new Date(env.SOURCE_DATE_EPOCH && Number.isFinite(epoch) ? epoch * 1000 : Date.now()).toISOString().replace(/\.\d{3}Z$/, 'Z');
  return { version, commit, modified, date };
}
