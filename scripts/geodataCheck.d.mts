export interface GeodataEntry {
  zip: string;
  city: string;
  state: string;
  latitude: number;
  longitude: number;
}
export interface StateBounds {
  bounds: Record<string, [south: number, north: number, west: number, east: number]>;
  marginDegrees: number;
  exceptions?: Record<string, unknown>;
}
export const MILITARY_STATES: string[];
export function checkGeodataPoints<T extends GeodataEntry>(
  entries: T[],
  bounds: StateBounds,
  corrections?: Record<string, { latitude: number; longitude: number }>,
): { entries: T[]; problems: string[] };
