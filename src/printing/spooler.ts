/**
 * The system's print spooler: CUPS's `lp`, or BSD's `lpr` where there is no `lp`. The document is
 * written to a private temporary file, handed to the spooler with the queue, the copies and the
 * media as its options, and counts as printed once the spooler accepted it (exit 0). Its refusals
 * become one line naming the queue.
 */
import { spawn } from 'node:child_process';
import { constants } from 'node:fs';
import { access, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { PrintError } from './errors.js';

export interface Spooler {
  kind: 'lp' | 'lpr';
  /** The program's path, found on PATH. */
  path: string;
}

export interface SpoolJob {
  /** undefined: the system's default queue. */
  queue: string | undefined;
  copies: number;
  /** `Letter`, `4x6`, ...: passed as `-o media=`. */
  media: string | undefined;
  /** The job's title on the queue (the document's name). */
  title: string;
  /** The file name the spooler is given (its extension tells the spooler the type). */
  fileName: string;
  bytes: Uint8Array;
}

export interface SpoolOptions {
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
}

async function onPath(name: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    try {
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** `lp`, else `lpr`, from the PATH of `env`; a PrintError saying what to install when neither is there. */
export async function findSpooler(env: NodeJS.ProcessEnv): Promise<Spooler> {
  const lp = await onPath('lp', env);
  if (lp) return { kind: 'lp', path: lp };
  const lpr = await onPath('lpr', env);
  if (lpr) return { kind: 'lpr', path: lpr };
  throw new PrintError(
    'no print spooler: neither lp nor lpr is on the PATH',
    'install CUPS (Debian/Ubuntu: apt install cups-client; macOS has it), or print to a thermal printer with --printer tcp://HOST:9100',
  );
}

/** The spooler's arguments for one job. */
export function spoolerArguments(spooler: Spooler, job: Omit<SpoolJob, 'bytes' | 'fileName'>, file: string): string[] {
  const media = job.media ? ['-o', `media=${job.media}`] : [];
  if (spooler.kind === 'lp') {
    return [...(job.queue ? ['-d', job.queue] : []), '-n', String(job.copies), ...media, '-t', job.title, '--', file];
  }
  return [...(job.queue ? ['-P', job.queue] : []), `-#${job.copies}`, ...media, '-T', job.title, '--', file];
}

/** What the spooler said, in one line: the queue and the cause, with what to do. */
function refusal(spooler: Spooler, queue: string | undefined, output: string, exitCode: number | null): PrintError {
  const said = output.trim().split('\n').at(-1)?.trim() ?? '';
  const name = queue ? `queue ${queue}` : "the system's default queue";
  if (/does not exist|unknown (printer|destination)|no such (printer|queue)|unknown printer/i.test(said)) {
    return new PrintError(`${spooler.kind}: ${name} does not exist (${said})`, 'lpstat -p lists the queues; shipper printer list lists the printers you named');
  }
  if (/no default destination|no default printer/i.test(said)) {
    return new PrintError(
      `${spooler.kind}: no default queue on this machine`,
      'give --printer NAME, set print.bol / print.labels (shipper config set), or set a default queue (lpoptions -d QUEUE)',
    );
  }
  if (/not accepting|disabled|paused|stopped/i.test(said)) {
    return new PrintError(`${spooler.kind}: ${name} is not accepting jobs (${said})`, 'cupsenable / cupsaccept the queue, or choose another printer with --printer');
  }
  return new PrintError(`${spooler.kind}: ${name} refused the document${said ? ` (${said})` : ` (exit ${exitCode})`}`, 'check the queue with lpstat -t');
}

/** Hands one document to the spooler; resolves with the spooler's request id (when it said one) once it accepted the job. */
export async function submitToSpooler(spooler: Spooler, job: SpoolJob, options: SpoolOptions): Promise<{ requestId?: string | undefined }> {
  const dir = await mkdtemp(join(tmpdir(), 'shipper-print-'));
  const file = join(dir, job.fileName);
  try {
    await writeFile(file, job.bytes, { mode: 0o600 });
    const args = spoolerArguments(spooler, job, file);
    const { code, stdout, stderr, error, timedOut } = await new Promise<{ code: number | null; stdout: string; stderr: string; error?: NodeJS.ErrnoException; timedOut: boolean }>(
      (resolve) => {
        const child = spawn(spooler.path, args, { env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
        let stdout = '';
        let stderr = '';
        let timedOut = false;
        const timer = setTimeout(() => {
          timedOut = true;
          child.kill('SIGTERM');
        }, options.timeoutMs);
        child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        child.once('error', (error: NodeJS.ErrnoException) => {
          clearTimeout(timer);
          resolve({ code: null, stdout, stderr, error, timedOut });
        });
        child.once('close', (code) => {
          clearTimeout(timer);
          resolve({ code, stdout, stderr, timedOut });
        });
      },
    );
    if (error) throw new PrintError(`cannot run ${spooler.path}: ${error.code ?? error.message}`, 'check the CUPS client installation');
    if (timedOut) {
      throw new PrintError(
        `${spooler.kind} did not answer within ${options.timeoutMs} ms${job.queue ? ` for queue ${job.queue}` : ''}`,
        'check the CUPS service (lpstat -r); print.timeoutMs sets the wait',
      );
    }
    if (code !== 0) throw refusal(spooler, job.queue, stderr || stdout, code);
    // CUPS: "request id is dock-123 (1 file(s))".
    return { requestId: /request id is (\S+)/.exec(stdout)?.[1] };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
