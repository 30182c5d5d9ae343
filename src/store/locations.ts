/**
 * Saved locations: named shipper/consignee addresses (`shipper location add NAME ...`, then
 * `--shipper NAME`). Client-side data kept in the local store's `locations` collection, so they
 * work in remote mode too.
 */
import { z } from 'zod';
import { addressSchema, storedAddressSchema, type Address, type AddressInput } from '../domain/schemas.js';
import { JsonStore } from './jsonStore.js';

export const locationNameSchema = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/, { message: 'location names are letters, digits, - and _ (at most 64)' });

export const savedLocationSchema = z.object({ name: locationNameSchema, address: addressSchema });
export type SavedLocation = z.output<typeof savedLocationSchema>;
/** As read back: a location saved before control characters were refused still reads (a booking with it names the field). */
const storedLocationSchema = z.object({ name: locationNameSchema, address: storedAddressSchema });

/** Names are case-insensitive: "Chicago-DC" and "chicago-dc" are the same location. */
const fileId = (name: string) => name.toLowerCase();

export class LocationBook {
  constructor(private readonly store: JsonStore) {}

  async get(name: string): Promise<SavedLocation | undefined> {
    if (!locationNameSchema.safeParse(name).success) return undefined;
    return this.store.get('locations', fileId(name), storedLocationSchema);
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
    await this.store.put('locations', fileId(location.name), location);
  }

  async list(): Promise<SavedLocation[]> {
    const { ids } = await this.store.listIds('locations', { limit: 10_000 });
    const locations = await Promise.all(ids.map((id) => this.store.get('locations', id, storedLocationSchema)));
    return locations.filter((location): location is SavedLocation => Boolean(location)).sort((a, b) => a.name.localeCompare(b.name));
  }

  async remove(name: string): Promise<boolean> {
    const existing = await this.get(name);
    if (!existing) return false;
    const { unlink } = await import('node:fs/promises');
    await unlink(this.store.fileOf('locations', fileId(name)));
    return true;
  }
}

export type { Address };
