/**
 * Charge codes on carriers' bills and what they mean to the audit. Carriers' 210 guides put a
 * code on each L1 charge (element L108, "special charge or allowance code"); the bill CSV names
 * accessorials the same way. Three kinds are not accessorials: fuel, discount and the linehaul
 * itself. Any other code is an accessorial: ours (LIFTGATE_DELIVERY, ...) as they are, the common
 * carrier codes through the table below. A code that names no accessorial of the shipment (or one
 * this table does not know) was not ordered.
 *
 * A carrier code may stand for either end (LFT is a liftgate at pickup or at delivery): it matches
 * whichever of them the shipment ordered.
 */
const FUEL_CODES = new Set(['FUE', 'FSC', 'FUEL', 'FUEL_SURCHARGE']);
const DISCOUNT_CODES = new Set(['DSC', 'DIS', 'DISC', 'DISCOUNT']);
const LINEHAUL_CODES = new Set(['400', 'LH', 'LHS', 'LINEHAUL', 'FRT', 'FREIGHT']);

/** Carrier codes and the accessorials of the tariff each may mean, in order of preference. */
export const CARRIER_ACCESSORIAL_CODES: Readonly<Record<string, readonly string[]>> = {
  LFT: ['LIFTGATE_DELIVERY', 'LIFTGATE_PICKUP'],
  LGD: ['LIFTGATE_DELIVERY'],
  LGP: ['LIFTGATE_PICKUP'],
  RES: ['RESIDENTIAL_DELIVERY', 'RESIDENTIAL_PICKUP'],
  RSD: ['RESIDENTIAL_DELIVERY'],
  RSP: ['RESIDENTIAL_PICKUP'],
  IDL: ['INSIDE_DELIVERY'],
  IPU: ['INSIDE_PICKUP'],
  LAD: ['LIMITED_ACCESS_DELIVERY', 'LIMITED_ACCESS_PICKUP'],
  LAP: ['LIMITED_ACCESS_PICKUP'],
  APT: ['APPOINTMENT'],
  NTF: ['NOTIFY_BEFORE_DELIVERY'],
  NOT: ['NOTIFY_BEFORE_DELIVERY'],
};

export type ChargeKind = 'linehaul' | 'fuel' | 'discount' | 'accessorial';

export function normaliseChargeCode(code: string): string {
  return code
    .trim()
    .toUpperCase()
    .replace(/[\s-]+/g, '_');
}

export function chargeKindOf(code: string): ChargeKind {
  const normalised = normaliseChargeCode(code);
  if (FUEL_CODES.has(normalised)) return 'fuel';
  if (DISCOUNT_CODES.has(normalised)) return 'discount';
  if (LINEHAUL_CODES.has(normalised)) return 'linehaul';
  return 'accessorial';
}

/** The accessorials of the tariff a billed code may stand for: itself, or those of the table. */
export function accessorialsMeantBy(code: string): readonly string[] {
  const normalised = normaliseChargeCode(code);
  return CARRIER_ACCESSORIAL_CODES[normalised] ?? [normalised];
}
