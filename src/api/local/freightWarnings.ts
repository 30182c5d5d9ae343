/**
 * The freight check on what the local engine answers: a quote, a shipment, a batch outcome.
 * Rated with the tariff the engine prices with (tariffRerate), so that the price at stake is what
 * the same tariff would bill at the risk class or rule. A carrier agreement's rating and rules
 * can be handed in instead (`rerateOf`, `rules`).
 */
import { checkFreight, type Rerate } from '../../domain/freightCheck.js';
import { DEFAULT_INSPECTION_RULES, type InspectionRules } from '../../domain/inspectionRules.js';
import { agreementRerate } from '../../domain/agreements/agreementRerate.js';
import type { CarrierAgreement } from '../../domain/agreements/rateAgreement.js';
import type { PricedBy } from '../../domain/pricedBy.js';
import { tariffRerate } from '../../domain/rating.js';
import type { RatedOrderComponent } from '../../domain/schemas.js';
import type { Tariff } from '../../domain/tariff.js';
import type { Warning } from '../../domain/warnings.js';
import type { BatchOutcome } from '../types.js';

/** What the check reads of a quote or a shipment. */
export interface CheckedFreight {
  orderComponents: ReadonlyArray<RatedOrderComponent>;
  /** A quote's price. */
  quotedPriceInCents?: number;
  /** A shipment's price (the price of the quote it was booked on). */
  totalPriceInCents?: number;
  miles: number;
  accessorials: ReadonlyArray<string>;
  /** What priced it: a carrier agreement's rules and rates then judge it (agreementCheck). */
  pricedBy?: PricedBy | undefined;
  requiredPickupDate?: string;
  pickupAddress?: { zipCode: string };
  deliveryAddress?: { zipCode: string };
}

export interface FreightCheckSettings {
  rules?: InspectionRules | undefined;
  /** How a record is re-rated; default: the tariff on the record's lane and accessorials. */
  rerateOf?: ((record: CheckedFreight, tariff: Tariff) => Rerate) | undefined;
}

/**
 * A record priced by a carrier agreement that is loaded is checked by that agreement: its
 * inspection rules (agreement.json `inspection`, else the defaults) and its rates, at the quote's
 * lane, pickup day, accessorials and diesel price. Otherwise `settings` as given.
 */
export function agreementCheck(record: CheckedFreight, agreements: readonly CarrierAgreement[], settings: FreightCheckSettings = {}): FreightCheckSettings {
  const pricedBy = record.pricedBy;
  if (pricedBy?.kind !== 'AGREEMENT') return settings;
  const carrier = agreements.find((item) => item.agreement.scac === pricedBy.scac && item.agreement.agreement === pricedBy.agreement);
  const originZip = record.pickupAddress?.zipCode;
  const destinationZip = record.deliveryAddress?.zipCode;
  if (!carrier || !originZip || !destinationZip || !record.requiredPickupDate) return settings;
  const lane = { originZip, destinationZip, pickupDate: record.requiredPickupDate, accessorials: record.accessorials, pricedBy };
  return { rules: carrier.agreement.inspection, rerateOf: () => agreementRerate(carrier, lane) };
}

export function freightWarnings(record: CheckedFreight, tariff: Tariff, settings: FreightCheckSettings = {}): Warning[] {
  const rerate = settings.rerateOf ? settings.rerateOf(record, tariff) : tariffRerate(tariff, record.miles, record.accessorials);
  return checkFreight({
    orderComponents: record.orderComponents,
    quotedPriceInCents: record.quotedPriceInCents ?? record.totalPriceInCents ?? 0,
    rules: settings.rules ?? DEFAULT_INSPECTION_RULES,
    rerate,
  });
}

/** A batch outcome with the check's warnings added (the request's lines may say more than the quote's: stackable, a description). */
export function withFreightWarnings<T extends CheckedFreight>(
  outcome: BatchOutcome<T>,
  tariff: Tariff,
  settings: FreightCheckSettings,
  lines?: ReadonlyArray<Partial<RatedOrderComponent>>,
): BatchOutcome<T> {
  if (!outcome.ok) return outcome;
  const record = lines ? { ...outcome.data, orderComponents: outcome.data.orderComponents.map((component, index) => withLine(component, lines[index])) } : outcome.data;
  return { ...outcome, warnings: [...outcome.warnings, ...freightWarnings(record, tariff, settings)] };
}

/** A quoted line with what the request adds to it (per-line fields), as the booking would store it. */
function withLine(component: RatedOrderComponent, line: Partial<RatedOrderComponent> | undefined): RatedOrderComponent {
  if (!line) return component;
  return {
    ...component,
    description: line.description ?? component.description,
    nmfcCode: line.nmfcCode ?? component.nmfcCode,
    ...(line.stackable !== undefined ? { stackable: line.stackable } : {}),
  };
}
