/**
 * The password file libpq reads, for a store URL without a password when PGPASSWORD is not set
 * (postgres.js reads neither file): PGPASSFILE, else ~/.pgpass. Each line is
 * `hostname:port:database:username:password`; `*` in any of the first four fields matches anything,
 * `\:` and `\\` stand for `:` and `\`, lines starting with # are comments, and the first line that
 * matches gives the password. As libpq does, a file that is not a plain file, or that its group or
 * others may read or write (anything beyond 0600), is ignored: it says so when the login is refused.
 */
import { readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export interface PasswordTarget {
  host: string;
  port: number | string;
  database: string;
  user: string;
}

export type PasswordLookup = { password: string } | { ignored: string } | undefined;

/** When the line's first field matches value (`*` matches anything): the line after that field's `:`; else undefined. */
function matchField(line: string, value: string): string | undefined {
  if (line.startsWith('*:')) return line.slice(2);
  let at = 0;
  for (let index = 0; index < value.length; index++) {
    if (line[at] === '\\' && at + 1 < line.length) at++;
    if (line[at] !== value[index]) return undefined;
    at++;
  }
  return line[at] === ':' ? line.slice(at + 1) : undefined;
}

/** The password of the first line of text that matches target (libpq's passwordFromFile), or undefined. */
export function findPassword(text: string, target: PasswordTarget): string | undefined {
  for (const raw of text.split('\n')) {
    const line = raw.replace(/\r$/, '');
    if (line === '' || line.startsWith('#')) continue;
    let rest: string | undefined = line;
    for (const value of [target.host, String(target.port), target.database, target.user]) {
      rest = matchField(rest, value);
      if (rest === undefined) break;
    }
    if (rest === undefined) continue;
    let password = '';
    for (let at = 0; at < rest.length && rest[at] !== ':'; at++) {
      if (rest[at] === '\\' && at + 1 < rest.length) at++;
      password += rest[at];
    }
    return password;
  }
  return undefined;
}

/** The password the password file gives target; { ignored } when the file is there but not used; undefined when it has none. */
export function passwordFromFile(target: PasswordTarget, env: NodeJS.ProcessEnv = process.env): PasswordLookup {
  const named = env.PGPASSFILE;
  const name = named ? 'the password file PGPASSFILE names' : 'the password file ~/.pgpass';
  let path: string;
  try {
    path = named || join(homedir(), '.pgpass');
  } catch {
    return undefined;
  }
  let stats;
  try {
    stats = statSync(path);
  } catch {
    return undefined;
  }
  if (!stats.isFile()) return { ignored: `${name} is not a plain file and was ignored` };
  if (process.platform !== 'win32' && (stats.mode & 0o077) !== 0) {
    return { ignored: `${name} was ignored: its group or others may read it (chmod 600 it, as libpq requires)` };
  }
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return { ignored: `${name} could not be read` };
  }
  const password = findPassword(text, target);
  return password === undefined ? undefined : { password };
}
