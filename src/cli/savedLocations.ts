/**
 * Saved locations as the commands use them: the LocationBook of the local store (also in remote
 * mode: they are the user's own address book), and `--shipper NAME|SPEC` resolution.
 */
import { makeProblem } from '../api/problems.js';
import { closestLocationName } from '../domain/locationMatch.js';
import type { LocationResolver } from '../import/shipmentRows.js';
import type { LocationBook } from '../store/locations.js';
import { isAddressSpec, parseAddressSpec, ADDRESS_SPEC_EXAMPLE } from './addressSpec.js';
import type { CommandContext } from './context.js';

/** The address a `--shipper`/`--consignee` value stands for (raw: the API validates it). */
export async function partyAddress(ctx: CommandContext, value: string, flag: string): Promise<Record<string, unknown>> {
  if (isAddressSpec(value)) return parseAddressSpec(value, flag);
  const book = await ctx.locations();
  const saved = await book.get(value.trim());
  if (!saved) {
    const closest = closestLocationName(
      value,
      (await book.list()).map((location) => location.name),
    );
    throw makeProblem(
      404,
      'not-found',
      'Not Found',
      `${flag} ${value}: no saved location of that name${closest ? ` (did you mean ${closest}?)` : ''}; see \`shipper location list\`, or write the address: ${flag} ${ADDRESS_SPEC_EXAMPLE}`,
    );
  }
  // Empty optional fields stay out of the request: the published Address has no nulls.
  return Object.fromEntries(Object.entries(saved.address).filter(([, field]) => field !== null && field !== undefined));
}

/** Saved locations by name for the CSV import, each read once per run. */
export function cachedLocationResolver(book: LocationBook): LocationResolver {
  const cache = new Map<string, Promise<Record<string, unknown> | undefined>>();
  return {
    resolve(name) {
      const key = name.toLowerCase();
      let found = cache.get(key);
      if (!found) {
        found = book.get(name).then((saved) => (saved ? { ...saved.address } : undefined));
        cache.set(key, found);
      }
      return found;
    },
  };
}
