/** Transit tables of the local engine (extension POST /v1/shipper/transit): read-only. */
import type { TransitTable } from '../../domain/schemas.js';
import type { Tariff } from '../../domain/tariff.js';
import { localDateInZone } from '../../domain/dates.js';
import { nextBusinessDay } from '../../domain/transit.js';
import { pickupDays, transitForLane } from '../../domain/transitTable.js';
import { constraintViolation } from '../problems.js';
import type { ApiResult } from '../types.js';
import type { BodyOf, Input } from './input.js';
import type { ZipLookup } from '../../domain/zipCode.js';

export function transitTimes(input: Input<BodyOf<'transitTimes'>>, tariff: Tariff, zips: ZipLookup, now: Date): ApiResult<TransitTable> {
  const request = input.value;
  const origin = zips.lookup(request.origin.zipCode)!;
  const today = localDateInZone(now, origin.timeZone);
  // Unlike a quote, a closed first day is no error here: the table shows why there is no pickup.
  const start = request.pickupDate ?? nextBusinessDay(today, tariff.holidays);
  if (start < today) {
    throw constraintViolation([{ field: 'pickupDate', reason: `${start} is in the past (today is ${today} at the origin)` }]);
  }
  const days = pickupDays(start, request.pickupDays, tariff.holidays);
  const lanes = request.destinations.map((destination) => transitForLane(origin, zips.lookup(destination.zipCode)!, days, tariff));
  return { data: { lanes }, warnings: input.warnings };
}
