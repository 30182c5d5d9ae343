/** Density and the NMFC 13-subprovision freight class scale (in force since 2025-07-19). */
import type { Dimensions, FreightClass } from './schemas.js';

const CUBIC_INCHES_PER_CUBIC_FOOT = 1728;

/** Pounds per cubic foot of a component: its total weight over the cube of all its pallets. */
export function densityPcf(poundsWeight: number, palletCount: number, dimensions: Dimensions): number {
  const cubicFeet = (palletCount * dimensions.length * dimensions.width * dimensions.height) / CUBIC_INCHES_PER_CUBIC_FOOT;
  return poundsWeight / cubicFeet;
}

/** Lower density bound (inclusive) of each class, densest first. */
const DENSITY_SCALE: ReadonlyArray<readonly [minimumPcf: number, freightClass: FreightClass]> = [
  [50, '50'],
  [35, '55'],
  [30, '60'],
  [22.5, '65'],
  [15, '70'],
  [12, '85'],
  [10, '92.5'],
  [8, '100'],
  [6, '125'],
  [4, '175'],
  [2, '250'],
  [1, '300'],
];

export function freightClassForDensity(pcf: number): FreightClass {
  for (const [minimumPcf, freightClass] of DENSITY_SCALE) {
    if (pcf >= minimumPcf) return freightClass;
  }
  return '400';
}
