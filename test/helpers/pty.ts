/**
 * Drives the built CLI through a real pseudo-terminal (@lydell/node-pty), as a person at a terminal would:
 * wait for a prompt to appear, type, press keys. Output is kept with ANSI codes stripped.
 */
import { spawn, type IPty } from '@lydell/node-pty';
import { stripVTControlCharacters } from 'node:util';
import { BIN, ISOLATED_SETTINGS } from './cli.js';

export const KEY = { enter: '\r', down: '\u001b[B', up: '\u001b[A', space: ' ', backspace: '\u007f', ctrlC: '\u0003', ctrlU: '\u0015' } as const;

export interface PtySession {
  /** Resolves when the text (since the last match) matches; rejects after timeoutMs with the screen so far. */
  waitFor(pattern: RegExp | string, timeoutMs?: number): Promise<string>;
  /** Types text (and keys) into the terminal. */
  type(text: string): void;
  /** Waits for the prompt, then types the answer and Enter. */
  answer(prompt: RegExp | string, text: string): Promise<void>;
  /** Everything written to the terminal so far, without ANSI codes. */
  output(): string;
  /** Everything written to the terminal so far, as written (ANSI codes included). */
  raw(): string;
  exitCode: Promise<number>;
  kill(): void;
}

/** Runs "$@", then writes its exit code as an OSC sequence and keeps the terminal open until killed. */
const EXIT_REPORTER = 'trap : INT; "$@"; code=$?; printf "\\033]777;shipper-exit;%d\\007" "$code"; exec sleep 60';
const EXIT_REPORT = /\u001b\]777;shipper-exit;(\d+)\u0007/;

export function spawnCliInPty(args: string[], options: { cwd: string; env?: Record<string, string>; cols?: number; rows?: number }): PtySession {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !['NO_COLOR', 'FORCE_COLOR', 'SHIPPER_STORE', 'SHIPPER_API_KEY'].includes(key)) env[key] = value;
  }
  // Never the developer's own config (which a first run of a new shipper would also move): a directory of the test's own.
  Object.assign(env, { TERM: 'xterm-256color', SHIPPER_CONFIG_DIR: ISOLATED_SETTINGS.SHIPPER_CONFIG_DIR!, ...options.env });
  // The CLI runs under a shell that stays in the terminal after it: when the CLI itself led the
  // terminal's session, its exit hung the terminal up, and output not yet read was lost (node-pty
  // drops its socket 200 ms after the exit; under load about 1 run in 90 lost the end of a table).
  // The shell then writes the exit code as an escape sequence after the last output, and waits.
  // Its INT trap lets Ctrl-C reach the CLI (a trapped signal is default again in the child) while
  // the shell lives on to report the code.
  const child: IPty = spawn('/bin/sh', ['-c', EXIT_REPORTER, 'sh', process.execPath, BIN, ...args], {
    name: 'xterm-256color',
    cols: options.cols ?? 120,
    rows: options.rows ?? 60,
    cwd: options.cwd,
    env,
  });
  let raw = '';
  let cursor = 0;
  const listeners = new Set<() => void>();
  let reportExit: (code: number) => void = () => undefined;
  const exitCode = new Promise<number>((resolve) => (reportExit = resolve));
  child.onData((data) => {
    raw += data;
    const reported = EXIT_REPORT.exec(raw);
    if (reported) {
      raw = raw.replace(EXIT_REPORT, '');
      reportExit(Number(reported[1]));
      child.kill();
    }
    for (const listener of [...listeners]) listener();
  });
  // The shell gone without a report (killed): the terminal's own exit code.
  child.onExit(({ exitCode: code }) => reportExit(code));
  const output = () => stripVTControlCharacters(raw);

  const waitFor = (pattern: RegExp | string, timeoutMs = 10_000) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        const text = output().slice(cursor);
        const index = typeof pattern === 'string' ? text.indexOf(pattern) : text.search(pattern);
        if (index === -1) return false;
        const matched = typeof pattern === 'string' ? pattern : (text.slice(index).match(pattern)?.[0] ?? '');
        cursor += index + matched.length;
        listeners.delete(listener);
        clearTimeout(timer);
        resolve(matched);
        return true;
      };
      const listener = () => void check();
      const timer = setTimeout(() => {
        listeners.delete(listener);
        reject(new Error(`timed out waiting for ${String(pattern)}; the terminal shows:\n${output().slice(-2000)}`));
      }, timeoutMs);
      listeners.add(listener);
      check();
    });

  return {
    waitFor,
    type: (text) => child.write(text),
    async answer(prompt, text) {
      await waitFor(prompt);
      child.write(text);
      child.write(KEY.enter);
    },
    output,
    raw: () => raw,
    exitCode,
    kill: () => child.kill(),
  };
}
