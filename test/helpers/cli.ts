/**
 * Runs the built CLI (bin/shipper.js) as a user would: a real child process with its own
 * arguments, environment and (temporary) store. `npm test` builds dist/ first.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const BIN = join(ROOT, 'bin', 'shipper.js');

/**
 * The developer's own settings must not leak into tests: no SHIPPER_* from the shell, and a config
 * directory that does not exist (a config with mode=remote would otherwise send every test remote).
 */
export const ISOLATED_SETTINGS: Record<string, string | undefined> = {
  SHIPPER_STORE: undefined,
  SHIPPER_API_KEY: undefined,
  SHIPPER_SERVE_API_KEY: undefined,
  SHIPPER_MODE: undefined,
  SHIPPER_BASE_URL: undefined,
  SHIPPER_PROFILE: undefined,
  SHIPPER_TIMEOUT_MS: undefined,
  SHIPPER_RETRIES: undefined,
  SHIPPER_BOL_COMPANY_PREFIX: undefined,
  SHIPPER_TARIFFS: undefined,
  SHIPPER_CLIENT_ID: undefined,
  SHIPPER_CLIENT_SECRET: undefined,
  OWAY_BASE_URL: undefined,
  OWAY_API_KEY: undefined,
  OWAY_M2M_CLIENT_ID: undefined,
  OWAY_M2M_CLIENT_SECRET: undefined,
  SHIPPER_CONFIG_DIR: join(tmpdir(), `shipper-test-no-config-${process.pid}`),
};

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  env?: Record<string, string | undefined>;
  input?: string;
  cwd?: string;
  /** Kill the process after this long: a hang catcher (default 5 minutes), never a deadline. */
  timeoutMs?: number;
}

export function runCli(args: string[], options: CliOptions = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', ...ISOLATED_SETTINGS, ...options.env };
    for (const key of Object.keys(env)) if (env[key] === undefined) delete env[key];
    const child = spawn(process.execPath, [BIN, ...args], { cwd: options.cwd ?? ROOT, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 300_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? (signal ? 128 : 1), stdout, stderr });
    });
    child.stdin.end(options.input ?? '');
  });
}

/** A fresh temporary directory, removed by the returned cleanup. */
export async function tempDir(prefix = 'shipper-test-'): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** Runs the CLI with `--store <dir>` prepended. */
export function storeCli(store: string) {
  return (args: string[], options: CliOptions = {}) => runCli(['--store', store, ...args], options);
}
