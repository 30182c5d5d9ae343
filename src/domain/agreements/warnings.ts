/** The warnings of carrier agreements, one named function per kind, each with its stable code. Pure. */
import { warning, type Warning } from '../warnings.js';

/** FUEL_PRICE_STALE: the price used is more than 14 days older than the pickup's index week. */
export function fuelPriceStaleWarning(scac: string, indexWeek: string, usedWeek: string, price: string): Warning {
  return warning(
    'FUEL_PRICE_STALE',
    `${scac}: the DOE diesel price of the week of ${indexWeek} is not in the store; quoted with the last price, ${price} of the week of ${usedWeek}, more than 14 days old (import the latest: shipper fuel import FILE)`,
  );
}

/** FUEL_PRICE_MISSING: the index week has no price (the last one before it was used), or the store has none at all. */
export function fuelPriceMissingWarning(scac: string, indexWeek: string, used: { week: string; price: string } | undefined): Warning {
  if (!used)
    return warning(
      'FUEL_PRICE_MISSING',
      `${scac}: no DOE diesel price on or before the week of ${indexWeek} in the store; quoted without a fuel surcharge (import the prices: shipper fuel import FILE)`,
    );
  return warning(
    'FUEL_PRICE_MISSING',
    `${scac}: the DOE diesel price of the week of ${indexWeek} is not in the store; quoted with the last price, ${used.price} of the week of ${used.week}`,
  );
}

/** FUEL_TABLE_NOT_IN_FORCE: the pickup date is before the first version of the carrier's fuel table. */
export function fuelTableNotInForceWarning(scac: string, pickupDate: string, firstFrom: string): Warning {
  return warning('FUEL_TABLE_NOT_IN_FORCE', `${scac}: no fuel table version is in force on ${pickupDate} (the first starts ${firstFrom}); quoted without a fuel surcharge`);
}

/** AGREEMENT_NO_ACCESSORIAL: the agreement does not price a requested accessorial (the carrier is left out). */
export function agreementWithoutAccessorialWarning(codes: readonly string[]): Warning {
  return warning('AGREEMENT_NO_ACCESSORIAL', `the agreement has no charge for ${codes.join(', ')}`);
}

/** LANE_NOT_COVERED: a carrier asked for gives no price on this lane (one line per carrier when rate shopping). */
export function laneNotCoveredWarning(scac: string, carrierName: string, reason: string): Warning {
  return warning('LANE_NOT_COVERED', `${scac} (${carrierName}): not quoted: ${reason}`);
}
