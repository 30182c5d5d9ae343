// The ZIP geodata's points checked against their states before the build writes them (build.mjs):
// corrections first (src/geo/coordinateCorrections.json), then every point must lie inside its
// state's box (src/geo/stateBounds.json), give or take the margin, unless it is a listed exception.
// Military mail "states" (AA, AE, AP) have no box: they are not places freight goes to.

/** The military mail states of USPS: Armed Forces Americas, Europe, Pacific. */
export const MILITARY_STATES = ['AA', 'AE', 'AP'];

/**
 * The entries with their corrections applied, and every problem found: a point outside its
 * state's box, a state without a box, a correction or exception of a ZIP that is not there.
 */
export function checkGeodataPoints(entries, { bounds, marginDegrees, exceptions = {} }, corrections = {}) {
  const problems = [];
  const byZip = new Map(entries.map((entry) => [entry.zip, entry]));
  for (const zip of Object.keys(corrections)) if (!byZip.has(zip)) problems.push(`correction of ${zip}: no such ZIP in the data`);
  for (const zip of Object.keys(exceptions)) if (!byZip.has(zip)) problems.push(`exception ${zip}: no such ZIP in the data`);
  const checked = entries.map((entry) => {
    const correction = corrections[entry.zip];
    return correction ? { ...entry, latitude: correction.latitude, longitude: correction.longitude } : entry;
  });
  for (const entry of checked) {
    if (MILITARY_STATES.includes(entry.state) || exceptions[entry.zip]) continue;
    const box = bounds[entry.state];
    if (!box) {
      problems.push(`${entry.zip} (${entry.city}, ${entry.state}): no bounds for state ${entry.state}`);
      continue;
    }
    const [south, north, west, east] = box;
    const inside =
      entry.latitude >= south - marginDegrees && entry.latitude <= north + marginDegrees && entry.longitude >= west - marginDegrees && entry.longitude <= east + marginDegrees;
    if (!inside)
      problems.push(`${entry.zip} (${entry.city}, ${entry.state}): ${entry.latitude}, ${entry.longitude} lies outside ${entry.state} (${south}..${north} N, ${west}..${east} E)`);
  }
  return { entries: checked, problems };
}
