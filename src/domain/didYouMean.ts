/**
 * "Did you mean ...?" for names that are not known (request fields, CSV columns): the known name
 * closest to what was typed, when it is close enough to be a typo. Pure.
 */

/** Lower case without spaces, `_` and `-`: "Pallet Count", "pallet_count" and "palletCount" are one name. */
export const normaliseName = (name: string): string => name.replace(/[\s_-]+/g, '').toLowerCase();

/**
 * Other words people use for a field, by normalised name: too far from the field's name for an
 * edit distance, but unambiguous. Suggested only where the field exists.
 */
const SYNONYMS: Record<string, string> = {
  zip: 'postalCode',
  zipcode: 'postalCode',
  postcode: 'postalCode',
  postal: 'postalCode',
  country: 'countryCode',
  weight: 'poundsWeight',
  pounds: 'poundsWeight',
  lbs: 'poundsWeight',
  pallets: 'palletCount',
  pieces: 'pieceCount',
  dims: 'dimensions',
  desc: 'description',
  nmfc: 'nmfcCode',
  packaging: 'packagingType',
  street: 'street1',
  address: 'street1',
  company: 'name',
  contact: 'contactName',
  reference: 'refNumber',
  ref: 'refNumber',
};

/** The known name that `name` most likely means, or undefined when none is close. */
export function didYouMean(name: string, known: ReadonlyArray<string>): string | undefined {
  const wanted = normaliseName(name);
  if (wanted === '') return undefined;
  const synonym = SYNONYMS[wanted];
  if (synonym !== undefined && known.includes(synonym)) return synonym;
  let best: { name: string; distance: number } | undefined;
  for (const candidate of known) {
    const normalised = normaliseName(candidate);
    const distance = normalised.includes(wanted) && wanted.length >= 4 ? 1 : Math.min(editDistance(wanted, normalised), 1 + prefixDistance(wanted, normalised));
    if (!best || distance < best.distance) best = { name: candidate, distance };
  }
  return best && best.distance <= Math.max(2, Math.floor(wanted.length / 4)) ? best.name : undefined;
}

/** A typo of the start of a longer name ("contry" for "countryCode"): the distance to its nearest prefix. */
function prefixDistance(wanted: string, candidate: string): number {
  if (candidate.length <= wanted.length || wanted.length < 4) return Number.POSITIVE_INFINITY;
  let best = Number.POSITIVE_INFINITY;
  for (let length = wanted.length - 1; length <= Math.min(candidate.length - 1, wanted.length + 1); length++) {
    best = Math.min(best, editDistance(wanted, candidate.slice(0, length)));
  }
  return best;
}

/** Levenshtein distance: insertions, deletions and substitutions. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}
