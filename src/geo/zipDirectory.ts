/**
 * ZIP code lookups on the compact geodata that the build generates from the `zipcodes` package
 * (dist/geo/<3-digit prefix>.json), each ZIP with its IANA time zone. A lookup reads at most one
 * small file, cached for the life of the process.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { leadingZip5, type ZipLookup, type ZipPlace } from '../domain/zipCode.js';
import { geodataDir } from '../paths.js';

type Row = [latitude: number, longitude: number, city: string, state: string, zoneIndex: number];

export class ZipDirectory implements ZipLookup {
  private zones: string[] | undefined;
  private readonly prefixes = new Map<string, Record<string, Row> | null>();

  constructor(private readonly dir: string = geodataDir()) {}

  lookup(zipCode: string): ZipPlace | undefined {
    const zip = leadingZip5(zipCode);
    if (!zip) return undefined;
    const zones = this.zoneList();
    const row = this.prefixTable(zip.slice(0, 3))?.[zip];
    if (!row) return undefined;
    const [latitude, longitude, city, state, zoneIndex] = row;
    return { zipCode: zip, city, state, latitude, longitude, timeZone: zones[zoneIndex] ?? 'America/Chicago' };
  }

  private zoneList(): string[] {
    if (!this.zones) {
      try {
        this.zones = JSON.parse(readFileSync(join(this.dir, 'zones.json'), 'utf8')) as string[];
      } catch {
        throw new Error(`ZIP geodata not found in ${this.dir}; run \`npm install\` (or \`npm run build\`) in the shipper folder`);
      }
    }
    return this.zones;
  }

  private prefixTable(prefix: string): Record<string, Row> | null {
    if (!this.prefixes.has(prefix)) {
      let table: Record<string, Row> | null = null;
      try {
        table = JSON.parse(readFileSync(join(this.dir, `${prefix}.json`), 'utf8')) as Record<string, Row>;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
      this.prefixes.set(prefix, table);
    }
    return this.prefixes.get(prefix)!;
  }
}
