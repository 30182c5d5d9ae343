// Each time zone's UTC offsets and en-US short names (EST, CDT, GMT+9) over a span of years, as
// this Node's Intl gives them. The build (build.mjs) writes one file per zone of the ZIP geodata,
// so that a command reads its zone's offsets from a small file (src/geo/zoneTransitions.ts)
// instead of loading ICU's zone and calendar data: the first Intl.DateTimeFormat of a process
// costs about 15 ms. Each file names the time zone data and CLDR versions that wrote it; a Node
// with other versions asks Intl instead.

/**
 * Time between two samples of a zone. A change of offset or name is found between samples (then
 * to the second), so a period shorter than this that ends as it began would be missed: the
 * shortest periods of these zones in these years last about a month (Morocco's and Egypt's
 * Ramadan pauses of daylight saving time).
 */
const SAMPLE_MS = 14 * 86_400_000;

const OFFSET_PATTERN = /^GMT(?:([+-])(\d{1,2})(?::(\d{2}))?(?::(\d{2}))?)?$/;

/** 'GMT-05:00' (Intl's longOffset) -> -18000000. */
function offsetMsOf(text) {
  const match = OFFSET_PATTERN.exec(text);
  if (!match) throw new Error(`zoneTransitions: cannot read the UTC offset ${JSON.stringify(text)}`);
  const [, sign, hours, minutes, seconds] = match;
  if (sign === undefined) return 0;
  const magnitude = (Number(hours) * 3600 + Number(minutes ?? 0) * 60 + Number(seconds ?? 0)) * 1000;
  return sign === '-' ? -magnitude : magnitude;
}

/**
 * The periods of a zone from `from` (epoch ms, a whole second) until `until`: each as [its first
 * instant, its UTC offset in ms, its en-US short name], the first starting at `from`. A throw for a
 * zone Intl does not know.
 */
export function zoneTransitions(timeZone, from, until) {
  const offsetFormat = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' });
  const nameFormat = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'short' });
  // format() is a fifth of formatToParts()'s cost; the zone's part follows the date ("1/15/2026, EST").
  const zonePart = (format, at) => {
    const text = format.format(at);
    return text.slice(text.lastIndexOf(', ') + 2);
  };
  const stateAt = (at) => `${zonePart(offsetFormat, at)} ${zonePart(nameFormat, at)}`;
  const periodAt = (at) => [at, offsetMsOf(zonePart(offsetFormat, at)), zonePart(nameFormat, at)];
  const periods = [periodAt(from)];
  let start = from;
  let state = stateAt(from);
  const last = until - 1000;
  while (start < last) {
    const next = Math.min(start + SAMPLE_MS, last);
    if (stateAt(next) === state) {
      start = next;
      continue;
    }
    // The first second of the new period: `same` has the old state, `changed` another.
    let same = start;
    let changed = next;
    while (changed - same > 1000) {
      const middle = same + Math.floor((changed - same) / 2000) * 1000;
      if (stateAt(middle) === state) same = middle;
      else changed = middle;
    }
    periods.push(periodAt(changed));
    start = changed;
    state = stateAt(changed);
  }
  return periods;
}

/**
 * What the build writes for a zone (dist/geo/tz/<zone>.json): its periods over the years
 * firstYear to lastYear (UTC), tagged with the versions of the data they come from; undefined on a
 * Node without those versions (then every zone is Intl's).
 */
export function zoneTransitionTable(timeZone, firstYear, lastYear, versions = process.versions) {
  if (typeof versions.tz !== 'string' || typeof versions.cldr !== 'string') return undefined;
  const from = Date.UTC(firstYear, 0, 1);
  const until = Date.UTC(lastYear + 1, 0, 1);
  return { timeZone, tz: versions.tz, cldr: versions.cldr, from, until, periods: zoneTransitions(timeZone, from, until) };
}
