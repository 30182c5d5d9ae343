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
  zip: 'zipCode',
  zipcode: 'zipCode',
  postcode: 'zipCode',
  postal: 'zipCode',
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
  street: 'address1',
  address: 'address1',
  company: 'name',
  contact: 'contactPerson',
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
    const distance = closeness(wanted, normaliseName(candidate));
    if (!best || distance < best.distance) best = { name: candidate, distance };
  }
  return best && best.distance <= Math.max(2, Math.floor(wanted.length / 4)) ? best.name : undefined;
}

/**
 * How far a typed name is from a known one: the edit distance to the whole name, or, for a typed
 * name of 4 letters or more, half a step more than the distance to the nearest part of it
 * ("weight" in "poundsWeight", "contry" for "countryCode").
 */
function closeness(wanted: string, candidate: string): number {
  let distance = editDistance(wanted, candidate);
  if (wanted.length < 4) return distance;
  for (let length = wanted.length - 1; length <= Math.min(candidate.length, wanted.length + 1); length++) {
    for (let start = 0; start + length <= candidate.length; start++) {
      distance = Math.min(distance, 0.5 + editDistance(wanted, candidate.slice(start, start + length)));
    }
  }
  return distance;
}

/** Edit distance with adjacent transpositions (optimal string alignment): "hieght" is one step from "height". */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = [Array.from({ length: b.length + 1 }, (_, index) => index)];
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min(rows[i - 1]![j]! + 1, row[j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) row[j] = Math.min(row[j]!, rows[i - 2]![j - 2]! + 1);
    }
    rows.push(row);
  }
  return rows[a.length]![b.length]!;
}
