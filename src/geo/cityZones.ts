/**
 * The time zone of a city and state as carriers name an event's place (X12 MS1 gives no ZIP):
 * an index of every city of the ZIP geodata (dist/geo) by name and state, built on first use
 * (~930 small files read once per process). Where a city lies in several zones (its ZIPs
 * disagree), the zone most of its ZIPs are in.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { geodataDir } from '../paths.js';

type Row = [latitude: number, longitude: number, city: string, state: string, zoneIndex: number];

/** "ST. LOUIS" and "Saint Louis" alike: capitals, ST/SAINT and FT/FORT unified, punctuation dropped. */
const keys = new Map<string, string>();

export function cityKey(city: string, state: string): string {
  const raw = `${city}|${state}`;
  let key = keys.get(raw);
  if (key === undefined) {
    key = normalisedCityKey(city, state);
    if (keys.size > 200_000) keys.clear();
    keys.set(raw, key);
  }
  return key;
}

function normalisedCityKey(city: string, state: string): string {
  const name = city
    .toUpperCase()
    .replace(/[.'’]/g, '')
    .replace(/\bST\b/g, 'SAINT')
    .replace(/\bFT\b/g, 'FORT')
    .replace(/\bMT\b/g, 'MOUNT')
    .replace(/[^A-Z0-9]+/g, ' ')
    .trim();
  return `${name}|${state.trim().toUpperCase()}`;
}

export class CityZones {
  private index: Map<string, string> | undefined;

  constructor(private readonly dir: string = geodataDir()) {}

  lookup(city: string, state: string): string | undefined {
    return this.build().get(cityKey(city, state));
  }

  private build(): Map<string, string> {
    if (this.index) return this.index;
    const counts = new Map<string, Map<string, number>>();
    try {
      const zones = JSON.parse(readFileSync(join(this.dir, 'zones.json'), 'utf8')) as string[];
      for (const file of readdirSync(this.dir)) {
        if (!/^\d{3}\.json$/.test(file)) continue;
        const table = JSON.parse(readFileSync(join(this.dir, file), 'utf8')) as Record<string, Row>;
        for (const [, , city, state, zoneIndex] of Object.values(table)) {
          const key = cityKey(city, state);
          const zone = zones[zoneIndex];
          if (!zone) continue;
          const byZone = counts.get(key) ?? new Map<string, number>();
          byZone.set(zone, (byZone.get(zone) ?? 0) + 1);
          counts.set(key, byZone);
        }
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    this.index = new Map([...counts].map(([key, byZone]) => [key, [...byZone].sort((a, b) => b[1] - a[1])[0]![0]]));
    return this.index;
  }
}
