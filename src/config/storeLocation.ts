/**
 * Where the store is: a directory (the JSON file store) or a PostgreSQL URL (`postgres://` or
 * `postgresql://`), from --store, SHIPPER_STORE or the config's store. Pure: no file, no socket.
 *
 * A URL may carry a password; it is never printed: everything that shows a store location or an
 * error that may hold one goes through redactUrl()/redactDatabaseUrls().
 */
import { resolve } from 'node:path';
import { ShipperError, type ErrorCode } from '../domain/errors.js';

export type StoreLocation = { kind: 'file'; dir: string } | { kind: 'postgres'; url: string };

const DATABASE_URL = /^postgres(?:ql)?:\/\//i;

export function isDatabaseUrl(text: string): boolean {
  return DATABASE_URL.test(text.trim());
}

/** The target_session_attrs values the driver (postgres.js) accepts; it throws on any other. */
const TARGET_SESSION_ATTRS = ['read-write', 'read-only', 'primary', 'standby', 'prefer-standby'];

export class StoreLocationError extends ShipperError {
  readonly code: ErrorCode = 'CONFIG';
  override name = 'StoreLocationError';
}

/** A directory is made absolute; a database URL is checked and kept as given. */
export function parseStoreLocation(text: string): StoreLocation {
  if (!isDatabaseUrl(text)) return { kind: 'file', dir: resolve(text) };
  const url = text.trim();
  let parsed: URL;
  try {
    parsed = new URL(url);
    // The driver %-decodes the user, the password and the hosts: a bad escape (%zz) is refused here,
    // and a NUL, which the protocol's zero-terminated strings cannot carry.
    const decoded = [parsed.username, parsed.password, authorityHosts(url)].map((part) => decodeURIComponent(part));
    if (decoded.some((part) => part.includes('\0'))) throw new RangeError('NUL');
    // A comma in the hosts is the driver's list of hosts, which a URL cannot spell unescaped: an
    // escaped one (%2C) slipped a second host past the URL check, and the driver then tried the
    // hosts in turn without end.
    if (decoded[2]!.includes(',')) throw new RangeError('host list');
  } catch {
    throw new StoreLocationError(`the store ${redactDatabaseUrls(url)} is not a valid PostgreSQL URL (postgres://user@host:5432/database)`);
  }
  const attrs = parsed.searchParams.get('target_session_attrs');
  if (attrs !== null && !TARGET_SESSION_ATTRS.includes(attrs)) {
    throw new StoreLocationError(`the store ${redactUrl(url)} asks for target_session_attrs=${attrs}: it is one of ${TARGET_SESSION_ATTRS.join(', ')}`);
  }
  if (!parsed.hostname && !parsed.searchParams.get('host')) throw new StoreLocationError(`the store ${redactUrl(url)} names no host (postgres://user@host:5432/database)`);
  return { kind: 'postgres', url };
}

/** What follows the user and password in the URL's authority (the host, or hosts, and port), as the driver reads it. */
function authorityHosts(url: string): string {
  const authority = url.slice(url.indexOf('://') + 3).split(/[?/]/)[0] ?? '';
  return authority.slice(authority.indexOf('@') + 1);
}

/** The URL with its password replaced by ****: what may be shown of a store location. */
export function redactUrl(text: string): string {
  if (!isDatabaseUrl(text)) return text;
  try {
    const url = new URL(text.trim());
    if (url.password) url.password = '****';
    for (const key of [...url.searchParams.keys()]) if (/^pass(word)?$/i.test(key)) url.searchParams.set(key, '****');
    return url.href;
  } catch {
    return redactDatabaseUrls(text);
  }
}

/** Any PostgreSQL URL's password inside a message (user:password@ and ?password=) replaced by ****. */
export function redactDatabaseUrls(message: string): string {
  return message.replace(/(postgres(?:ql)?:\/\/[^:@/\s]*:)[^@\s]*@/gi, '$1****@').replace(/(postgres(?:ql)?:\/\/\S*[?&]pass(?:word)?=)[^&\s]*/gi, '$1****');
}

/** How a store location is shown: a directory as it is, a URL without its password. */
export function describeStoreLocation(location: StoreLocation): string {
  return location.kind === 'file' ? location.dir : redactUrl(location.url);
}
