/**
 * The freight check beside a carrier's reweigh or reclass (issue 21): the same rules the check
 * gives before booking, run on the shipment as booked. When the bill reweighs or reclasses a line
 * the check had warned about, the audit says the warning was given (the risk was known); when the
 * check found no risk there, it says so: evidence for the dispute. Pure.
 */
import { checkFreight } from '../domain/freightCheck.js';
import { DEFAULT_INSPECTION_RULES, type InspectionRules } from '../domain/inspectionRules.js';
import { tariffRerate } from '../domain/rating.js';
import type { Shipment } from '../domain/schemas.js';
import type { Tariff } from '../domain/tariff.js';
import type { Warning } from '../domain/warnings.js';

/** The check's codes that bear on each finding: a class a measure changes, a weight a rule raises. */
const BEARING = {
  RECLASS: new Set(['DENSITY_MARGIN', 'NON_STACKABLE_HEIGHT', 'WIDE_FREIGHT', 'NO_DESCRIPTION', 'CUBIC_CAPACITY']),
  REWEIGH: new Set(['DENSITY_MARGIN', 'CUBIC_CAPACITY', 'LINEAR_FEET']),
} as const;

export interface FreightCheckEvidence {
  /** The check had warned about these lines (or the shipment) before booking. */
  warned: boolean;
  codes: string[];
  /** The sentence the finding gets. */
  sentence: string;
}

/**
 * What the check said about `lines` (1-based, as bills number them; empty: the shipment as a
 * whole) for a REWEIGH or RECLASS finding.
 */
export function freightCheckEvidence(
  shipment: Shipment,
  finding: 'REWEIGH' | 'RECLASS',
  lines: readonly number[],
  tariff: Tariff,
  rules: InspectionRules = DEFAULT_INSPECTION_RULES,
): FreightCheckEvidence {
  const warnings = checkFreight({
    orderComponents: shipment.orderComponents,
    quotedPriceInCents: shipment.totalPriceInCents,
    rules,
    rerate: tariffRerate(tariff, shipment.miles, shipment.accessorials),
  });
  const bearing = warnings.filter((item) => BEARING[finding].has(item.code) && (item.line === undefined || lines.length === 0 || lines.includes(item.line + 1)));
  const where = lines.length > 0 ? ` on line${lines.length > 1 ? 's' : ''} ${lines.join(', ')}` : '';
  if (bearing.length === 0) {
    return { warned: false, codes: [], sentence: `the freight check found no risk${where} before booking: the freight as declared was clear of the rules it checks` };
  }
  const codes = [...new Set(bearing.map((item) => item.code))];
  return { warned: true, codes, sentence: `the freight check had warned${where} before booking: ${bearing.map(describe).join('; ')}` };
}

function describe(item: Warning): string {
  const detail = item.detail ?? {};
  const what = item.code === 'DENSITY_MARGIN' ? ` (class ${detail.riskClass} with ${detail.changedBy})` : detail.riskClass !== undefined ? ` (class ${detail.riskClass})` : '';
  return `${item.code}${item.line !== undefined ? ` on line ${item.line + 1}` : ''}${what}`;
}
