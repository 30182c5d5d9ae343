/**
 * What a booking gets for the carrier beyond its order and BOL numbers: an SSCC per handling unit
 * (its pallet labels) and, when the carrier's PRO block is configured, a PRO number; and the checks
 * of what the request says of the carrier (a given PRO against the block's check digit, the pickup
 * window against the cut-off). Numbers come from the store's counters, which never go back, in
 * the booking's unit of work. A PRO names one shipment of its carrier.
 */
import { checkProNumber, proNumberFor, proRangeSize, proSerialOf } from '../../domain/proNumber.js';
import { warning, type Warning } from '../../domain/warnings.js';
import { pickupWindowWarning, type CarrierProfiles } from '../../domain/carrierProfile.js';
import { freightTotals } from '../../domain/freightTotals.js';
import { normalisedProNumber } from '../../domain/recordKeys.js';
import { ebolGaps, ebolIncompleteWarning } from '../../edi/ebolReadiness.js';
import type { Shipment, ShipmentRequest, Violation } from '../../domain/schemas.js';
import { ssccFor, ssccSerialCapacity, ssccSerialOf } from '../../domain/sscc.js';
import { conflict, PROBLEM_TYPE_BASE, ProblemError } from '../problems.js';
import type { ShipmentReads, StoreTransaction } from '../../store/ports.js';
import type { Numbering } from './numbering.js';

export interface CarrierSettings {
  carriers: CarrierProfiles;
  ssccExtensionDigit: number;
}

/** Handling units of a request: one SSCC each. */
export const handlingUnitsOf = (request: Pick<ShipmentRequest, 'orderComponents'>): number => freightTotals(request.orderComponents).pallets;

/** The request's carrier details against the carrier's profile: a PRO with a wrong check digit is refused. */
export function checkCarrierDetails(
  request: Pick<ShipmentRequest, 'proNumber' | 'carrier' | 'pickupWindow'> & Partial<Parameters<typeof ebolGaps>[0]>,
  settings: CarrierSettings,
  tariffCutoff: string,
): { violations: Violation[]; warnings: Warning[] } {
  const violations: Violation[] = [];
  const warnings: Warning[] = [];
  const scac = request.carrier?.scac;
  const profile = scac ? settings.carriers[scac] : undefined;
  if (request.proNumber && profile?.proRange) {
    const check = checkProNumber(request.proNumber, profile.proRange);
    if (!check.ok) violations.push({ field: 'proNumber', reason: check.message });
    else if (!check.inRange)
      warnings.push(
        warning('PRO_OUT_OF_BLOCK', `PRO ${request.proNumber} is not in the configured ${scac} block ${profile.proRange.first}-${profile.proRange.last} (proNumber)`, {
          field: 'proNumber',
        }),
      );
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

/** The shipment, other than `exceptId`, that already carries this PRO for this carrier (a PRO is unique per carrier). */
export async function proHolder(
  shipments: ShipmentReads,
  proNumber: string,
  scac: string | null | undefined,
  exceptId?: string,
): Promise<Pick<Shipment, 'id' | 'orderNumber'> | undefined> {
  const holders = await shipments.findByProNumber(proNumber);
  return holders.find((holder) => holder.id !== exceptId && (holder.carrier?.scac ?? null) === (scac ?? null));
}

/** The refusal of a PRO another shipment of the carrier has. */
export function proTaken(proNumber: string, holder: Pick<Shipment, 'id' | 'orderNumber'>, scac: string | null | undefined): ProblemError {
  return conflict(`PRO ${proNumber} is already on ${holder.orderNumber} (${holder.id})${scac ? ` for ${scac}` : ''}: a PRO number names one shipment of its carrier`, [
    { field: 'proNumber', reason: `already on ${holder.orderNumber}` },
  ]);
}

/**
 * SSCCs for every handling unit of the bookings and PROs for those whose carrier has a PRO block
 * and that gave none. In the booking's unit of work, after the order serials were reserved. A PRO
 * of the block that a shipment already carries (given by hand) is skipped.
 */
export async function assignCarrierNumbers(
  tx: Pick<StoreTransaction, 'counters' | 'shipments'>,
  requests: ReadonlyArray<Pick<ShipmentRequest, 'orderComponents' | 'carrier' | 'proNumber'>>,
  numbering: Numbering,
  settings: CarrierSettings,
): Promise<Array<{ ssccs: string[]; proNumber: string | null }>> {
  const prefix = numbering.bolCompanyPrefix;
  const units = requests.map(handlingUnitsOf);
  const total = units.reduce((sum, count) => sum + count, 0);
  const ssccsOf = (shipment: Shipment) => shipment.ssccs.map((sscc) => ssccSerialOf(sscc, prefix));
  let nextSscc = 0;
  if (total > 0) {
    const capacity = ssccSerialCapacity(prefix) - 1;
    const first = await tx.counters.reserve('sscc', total, { capacity, numbersOf: ssccsOf });
    if (first === null) throw exhausted(`SSCC serials under company prefix ${prefix} are used up (${capacity}); a shorter company prefix leaves more`);
    nextSscc = first;
  }
  // PROs given by hand in this batch: the block skips them too.
  const given = new Set(requests.flatMap((request) => (request.proNumber ? [`${request.carrier?.scac ?? ''} ${normalisedProNumber(request.proNumber)}`] : [])));
  const pros = new Map<string, string[]>();
  for (const scac of new Set(
    requests.flatMap((request) => (request.carrier?.scac && !request.proNumber && settings.carriers[request.carrier.scac]?.proRange ? [request.carrier.scac] : [])),
  )) {
    const count = requests.filter((request) => request.carrier?.scac === scac && !request.proNumber).length;
    const range = settings.carriers[scac]!.proRange!;
    // One counter per block (by its prefix and first number): the next block configured starts at
    // its own first PRO, and a block whose last number is raised goes on where it stopped.
    const counter = proBlockCounter(scac, range);
    const options = {
      capacity: Number(proRangeSize(range)),
      numbersOf: (shipment: Shipment) => [shipment.carrier?.scac === scac && shipment.proNumber ? proSerialOf(range, shipment.proNumber) : null],
    };
    const issued: string[] = [];
    while (issued.length < count) {
      const wanted = count - issued.length;
      const first = await tx.counters.reserve(counter, wanted, options);
      if (first === null) {
        throw exhausted(
          `the ${scac} PRO block ${range.prefix}${range.first}-${range.prefix}${range.last} is used up; configure the next block (shipper config set carriers.${scac} ...)`,
        );
      }
      for (let n = first; n < first + wanted; n++) {
        const pro = proNumberFor(range, n);
        const taken = given.has(`${scac} ${normalisedProNumber(pro)}`) || (await proHolder(tx.shipments, pro, scac)) !== undefined;
        if (!taken) issued.push(pro);
      }
    }
    pros.set(scac, issued);
  }
  return requests.map((request, index) => {
    const ssccs = Array.from({ length: units[index]! }, () => ssccFor(prefix, nextSscc++, settings.ssccExtensionDigit));
    const scac = request.carrier?.scac;
    const proNumber = scac && !request.proNumber ? (pros.get(scac)?.shift() ?? null) : null;
    return { ssccs, proNumber };
  });
}

/** The counter of a carrier's PRO block: one per block (its prefix and first number). */
export function proBlockCounter(scac: string, range: { prefix: string; first: string | number }): `pro-${string}` {
  return `pro-${scac.toLowerCase()}-${range.prefix.toLowerCase()}-${range.first}`;
}
