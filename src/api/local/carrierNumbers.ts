/**
 * What a booking gets for the carrier beyond its order and BOL numbers: an SSCC per handling unit
 * (its pallet labels) and, when the carrier's PRO block is configured, a PRO number; and the checks
 * of what the request says of the carrier (a given PRO against the block's check digit, the pickup
 * window against the cut-off). Numbers come from counters that never go back, under the shipments
 * lock, in the booking's reservation round.
 */
import { checkProNumber, proNumberFor, proRangeSize, proSerialOf } from '../../domain/proNumber.js';
import { pickupWindowWarning, type CarrierProfiles } from '../../domain/carrierProfile.js';
import { ebolGaps, ebolIncompleteWarning } from '../../edi/ebolReadiness.js';
import type { ShipmentRequest, Violation } from '../../domain/schemas.js';
import { ssccFor, ssccSerialCapacity, ssccSerialOf } from '../../domain/sscc.js';
import { PROBLEM_TYPE_BASE, ProblemError } from '../problems.js';
import type { Numbering } from './numbering.js';

export interface CarrierSettings {
  carriers: CarrierProfiles;
  ssccExtensionDigit: number;
}

/** Handling units of a request: one SSCC each. */
export const handlingUnitsOf = (request: Pick<ShipmentRequest, 'orderComponents'>): number => request.orderComponents.reduce((sum, component) => sum + component.palletCount, 0);

/** The request's carrier details against the carrier's profile: a PRO with a wrong check digit is refused. */
export function checkCarrierDetails(
  request: Pick<ShipmentRequest, 'proNumber' | 'carrier' | 'pickupWindow'> & Partial<Parameters<typeof ebolGaps>[0]>,
  settings: CarrierSettings,
  tariffCutoff: string,
): { violations: Violation[]; warnings: string[] } {
  const violations: Violation[] = [];
  const warnings: string[] = [];
  const scac = request.carrier?.scac;
  const profile = scac ? settings.carriers[scac] : undefined;
  if (request.proNumber && profile?.proRange) {
    const check = checkProNumber(request.proNumber, profile.proRange);
    if (!check.ok) violations.push({ field: 'proNumber', message: check.message });
    else if (!check.inRange) warnings.push(`PRO ${request.proNumber} is not in the configured ${scac} block ${profile.proRange.first}-${profile.proRange.last} (proNumber)`);
  }
  const window = pickupWindowWarning(request.pickupWindow, profile?.pickupCutoff ?? tariffCutoff, request.carrier?.name ?? null);
  if (window) warnings.push(window);
  // A carrier that takes eBOLs: what one would lack is said now, while shipment update can add it.
  if (profile?.ebol && request.orderComponents) {
    const gaps = ebolGaps(request as Parameters<typeof ebolGaps>[0]);
    if (gaps.length > 0) warnings.push(ebolIncompleteWarning(scac!, gaps));
  }
  return { violations, warnings };
}

function exhausted(detail: string): ProblemError {
  return new ProblemError({ type: `${PROBLEM_TYPE_BASE}numbers-exhausted`, title: 'Numbers Exhausted', status: 409, detail });
}

/**
 * SSCCs for every handling unit of the bookings and PROs for those whose carrier has a PRO block
 * and that gave none. Runs under the shipments lock, after the order serials were reserved.
 */
export async function assignCarrierNumbers(
  requests: ReadonlyArray<Pick<ShipmentRequest, 'orderComponents' | 'carrier' | 'proNumber'>>,
  numbering: Numbering,
  settings: CarrierSettings,
): Promise<Array<{ ssccs: string[]; proNumber: string | null }>> {
  const prefix = numbering.bolCompanyPrefix;
  const units = requests.map(handlingUnitsOf);
  const total = units.reduce((sum, count) => sum + count, 0);
  const ssccsOfRecords = () => numbering.highestOfRecords((record) => (record.ssccs ?? []).map((sscc) => ssccSerialOf(sscc, prefix)));
  let nextSscc = total > 0 ? await numbering.reserveOtherLocked('sscc', total, ssccsOfRecords) : 0;
  if (total > 0 && nextSscc + total - 1 >= ssccSerialCapacity(prefix)) {
    throw exhausted(`SSCC serials under company prefix ${prefix} are used up (${ssccSerialCapacity(prefix) - 1}); a shorter company prefix leaves more`);
  }
  const proNeeds = new Map<string, number>();
  for (const request of requests) {
    const scac = request.carrier?.scac;
    if (scac && !request.proNumber && settings.carriers[scac]?.proRange) proNeeds.set(scac, (proNeeds.get(scac) ?? 0) + 1);
  }
  const nextPro = new Map<string, number>();
  for (const [scac, count] of proNeeds) {
    const range = settings.carriers[scac]!.proRange!;
    // One counter per block (by its prefix and first number): the next block configured starts at
    // its own first PRO, and a block whose last number is raised goes on where it stopped.
    const prosOfRecords = () => numbering.highestOfRecords((record) => [record.carrier?.scac === scac && record.proNumber ? proSerialOf(range, record.proNumber) : null]);
    const first = await numbering.reserveWithinLocked(`pro-${scac.toLowerCase()}-${range.prefix}-${range.first}`, count, proRangeSize(range), prosOfRecords);
    if (first === null) {
      throw exhausted(
        `the ${scac} PRO block ${range.prefix}${range.first}-${range.prefix}${range.last} is used up; configure the next block (shipper config set carriers.${scac} ...)`,
      );
    }
    nextPro.set(scac, first);
  }
  return requests.map((request, index) => {
    const ssccs = Array.from({ length: units[index]! }, () => ssccFor(prefix, nextSscc++, settings.ssccExtensionDigit));
    const scac = request.carrier?.scac;
    let proNumber: string | null = null;
    if (scac && nextPro.has(scac) && !request.proNumber) {
      const n = nextPro.get(scac)!;
      nextPro.set(scac, n + 1);
      proNumber = proNumberFor(settings.carriers[scac]!.proRange!, n);
    }
    return { ssccs, proNumber };
  });
}
