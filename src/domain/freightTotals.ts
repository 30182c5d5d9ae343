/**
 * What a shipment's freight lines add up to, as the BOL, the carrier files, the invoice, the
 * lists and the audit state it. Pure. (Rating sums the raw weights itself: a weight break is
 * judged on the weight as sent, not as printed.)
 */
import type { Dimensions } from './schemas.js';

export interface FreightTotals {
  pallets: number;
  /** Sum of pieceCount; null when no line gives one (a blank cell, never a false 0). */
  pieces: number | null;
  /** Sum of the line weights, added in hundredths of a pound so that 0.1 + 0.2 is 0.3. */
  poundsWeight: number;
  /** Cubic feet: pallets x L x W x H / 1728, summed. */
  cubicFeet: number;
}

export interface FreightLine {
  palletCount: number;
  poundsWeight: number;
  pieceCount?: number | null | undefined;
  dimensions: Pick<Dimensions, 'length' | 'width' | 'height'>;
}

export function freightTotals(components: ReadonlyArray<FreightLine>): FreightTotals {
  let pallets = 0;
  let hundredths = 0;
  let pieces: number | null = null;
  let cubicInches = 0;
  for (const component of components) {
    pallets += component.palletCount;
    hundredths += Math.round(component.poundsWeight * 100);
    if (component.pieceCount !== null && component.pieceCount !== undefined) pieces = (pieces ?? 0) + component.pieceCount;
    const { length, width, height } = component.dimensions;
    cubicInches += component.palletCount * length * width * height;
  }
  return { pallets, pieces, poundsWeight: hundredths / 100, cubicFeet: cubicInches / 1728 };
}
