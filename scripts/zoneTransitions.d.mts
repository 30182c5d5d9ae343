export type ZonePeriod = [start: number, offsetMs: number, name: string];
export function zoneTransitions(timeZone: string, from: number, until: number): ZonePeriod[];
export interface ZoneTransitionTable {
  timeZone: string;
  tz: string;
  cldr: string;
  from: number;
  until: number;
  periods: ZonePeriod[];
}
export function zoneTransitionTable(timeZone: string, firstYear: number, lastYear: number, versions?: NodeJS.ProcessVersions): ZoneTransitionTable | undefined;
