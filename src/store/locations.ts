/**
 * Saved locations: named shipper/consignee addresses (`shipper location add NAME ...`, then
 * `--shipper NAME`). Client-side data kept in the local store's `locations` collection, so they
 * work in remote mode too.
 */
import { z } from 'zod';
import { addressSchema, storedAddressSchema, type Address, type AddressInput } from '../domain/schemas.js';
import type { LocationRepository } from './ports.js';
import { StoreError } from './storeError.js';
import { parseStored, readsLegacy } from './legacyRead.js';

export const locationNameSchema = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/, { message: 'location names are letters, digits, - and _ (at most 64)' });

export const savedLocationSchema = z.object({ name: locationNameSchema, address: addressSchema });
export type SavedLocation = z.output<typeof savedLocationSchema>;
/** As read back: a location saved before control characters were refused still reads (a booking with it names the field). */
const storedLocationSchema = z.object({ name: locationNameSchema, address: storedAddressSchema });
readsLegacy(storedLocationSchema, 'location');

export class LocationBook {
  constructor(private readonly store: LocationRepository) {}

  /** Names are case-insensitive: "Chicago-DC" and "chicago-dc" are the same location. */
  async get(name: string): Promise<SavedLocation | undefined> {
    if (!locationNameSchema.safeParse(name).success) return undefined;
    const stored = await this.store.get(name);
    return stored ? readBack(stored) : undefined;
  }

  /** Checks a location with the API's address schema, without saving it. */
  check(name: string, address: AddressInput): { ok: true; location: SavedLocation } | { ok: false; issues: z.ZodError } {
    const parsed = savedLocationSchema.safeParse({ name, address });
    return parsed.success ? { ok: true, location: parsed.data } : { ok: false, issues: parsed.error };
  }

  /** Validates with the API's address schema; returns the violations instead of saving when invalid. */
  async save(name: string, address: AddressInput): Promise<{ ok: true; location: SavedLocation } | { ok: false; issues: z.ZodError }> {
    const checked = this.check(name, address);
    if (checked.ok) await this.put(checked.location);
    return checked;
  }

  /** Saves a location that check() accepted. */
  async put(location: SavedLocation): Promise<void> {
    await this.store.put(location);
  }

  async list(): Promise<SavedLocation[]> {
    const { locations } = await this.store.list();
    return locations.map(readBack).sort((a, b) => a.name.localeCompare(b.name));
  }

  async remove(name: string): Promise<boolean> {
    const existing = await this.get(name);
    if (!existing) return false;
    return this.store.remove(name);
  }

  /** The names, lower case, for shell completion (nothing parsed). */
  names(): Promise<string[]> {
    return this.store.names();
  }
}

/** A stored location through the API's schema: one that does not pass is damaged. */
function readBack(stored: { name: string; address: unknown }): SavedLocation {
  const parsed = parseStored(storedLocationSchema, stored);
  if (!parsed.success) throw new StoreError(`the saved location ${stored.name} is damaged (it does not hold a valid address); save it again or remove it`);
  return parsed.data;
}

export type { Address };
