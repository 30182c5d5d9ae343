/**
 * The zones' offsets and short names that the build writes next to the ZIP geodata
 * (dist/geo/tz/America/Chicago.json, scripts/zoneTransitions.mjs), read when a command first needs
 * a zone: one small file instead of ICU's zone data. A file written from other time zone data or
 * CLDR names than this Node's (Node was upgraded since `npm install`) is left to Intl.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ZoneTransitions } from '../domain/dates.js';
import { geodataDir } from '../paths.js';

/** IANA names as file paths: segments of letters, digits, `_`, `+` and `-`, none of them `..`. */
const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z][A-Za-z0-9_+-]*)*$/;

interface ZoneTransitionFile extends ZoneTransitions {
  tz: string;
  cldr: string;
}

/** The zone's transitions from the build, undefined when there is no file for it or it was written from other data. */
export function readZoneTransitions(timeZone: string, dir: string = geodataDir(), versions: NodeJS.ProcessVersions = process.versions): ZoneTransitions | undefined {
  if (!ZONE_NAME.test(timeZone)) return undefined;
  let file: ZoneTransitionFile;
  try {
    file = JSON.parse(readFileSync(join(dir, 'tz', `${timeZone}.json`), 'utf8')) as ZoneTransitionFile;
  } catch (error) {
    const { code } = error as NodeJS.ErrnoException;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw error;
  }
  // The zone's own name (not another spelling that a case-insensitive file system also found).
  if (file.timeZone !== timeZone || file.tz !== versions.tz || file.cldr !== versions.cldr) return undefined;
  return { timeZone: file.timeZone, from: file.from, until: file.until, periods: file.periods };
}
