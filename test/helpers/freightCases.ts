/**
 * The freight check's rules on their thresholds, as freight the CLI (`-c` specs) and the API (JSON
 * components) both take: exactly on, just below, just above. Shared by test/cli/check.test.ts and
 * test/server/freight-check.test.ts; the domain test (test/domain/freightCheck.test.ts) has the why.
 */
import { readFileSync } from 'node:fs';
import { priceShipment } from '../../src/domain/rating.js';
import type { Quote, RatedOrderComponent } from '../../src/domain/schemas.js';
import { tariffSchema, type Tariff } from '../../src/domain/tariff.js';
import type { Warning } from '../../src/domain/warnings.js';

export interface Line {
  pallets: number;
  weight: number;
  dims: [number, number, number];
  desc?: string;
  stackable?: boolean;
}

export interface BoundaryCase {
  code: string;
  name: string;
  lines: Line[];
  warns: boolean;
  /** Beyond the published largest pallet (95x95x96 in): refused at quote, so the rule never sees it (the domain test has the rule). */
  refused?: true;
}

const described = (line: Omit<Line, 'desc'>): Line => ({ desc: 'Machine parts', ...line });

export const BOUNDARY_CASES: BoundaryCase[] = [
  // 980 lb on 48x48x48: an inch more on a side is exactly 15 pcf (class 70 still).
  { code: 'DENSITY_MARGIN', name: 'on: 980 lb, an inch more is exactly 15 pcf', lines: [described({ pallets: 1, weight: 980, dims: [48, 48, 48] })], warns: false },
  { code: 'DENSITY_MARGIN', name: 'below: 979 lb', lines: [described({ pallets: 1, weight: 979, dims: [48, 48, 48] })], warns: true },
  { code: 'DENSITY_MARGIN', name: 'above: 981 lb', lines: [described({ pallets: 1, weight: 981, dims: [48, 48, 48] })], warns: false },
  { code: 'NON_STACKABLE_HEIGHT', name: 'on: 96 in high', lines: [described({ pallets: 1, weight: 500, dims: [48, 40, 96], stackable: false })], warns: false },
  { code: 'NON_STACKABLE_HEIGHT', name: 'below: 95 in high', lines: [described({ pallets: 1, weight: 500, dims: [48, 40, 95], stackable: false })], warns: true },
  {
    code: 'NON_STACKABLE_HEIGHT',
    name: 'above: 97 in high',
    lines: [described({ pallets: 1, weight: 500, dims: [48, 40, 97], stackable: false })],
    warns: false,
    refused: true,
  },
  { code: 'WIDE_FREIGHT', name: 'on: 70 in wide', lines: [described({ pallets: 1, weight: 1200, dims: [48, 70, 48] })], warns: true },
  { code: 'WIDE_FREIGHT', name: 'below: 69 in wide', lines: [described({ pallets: 1, weight: 1200, dims: [48, 69, 48] })], warns: false },
  { code: 'WIDE_FREIGHT', name: 'above: 71 in wide', lines: [described({ pallets: 1, weight: 1200, dims: [48, 71, 48] })], warns: true },
  // 10 x 48x45x60 in is 750 cu ft; 4,500 lb is exactly 6 pcf.
  { code: 'CUBIC_CAPACITY', name: 'on: 750 cu ft at exactly 6 pcf', lines: [described({ pallets: 10, weight: 4500, dims: [48, 45, 60] })], warns: false },
  { code: 'CUBIC_CAPACITY', name: 'below: 4,499 lb (under 6 pcf)', lines: [described({ pallets: 10, weight: 4499, dims: [48, 45, 60] })], warns: true },
  { code: 'CUBIC_CAPACITY', name: 'above: 4,501 lb', lines: [described({ pallets: 10, weight: 4501, dims: [48, 45, 60] })], warns: false },
  // Not stackable: cubed at 96 in (Dugan item 650 B.1), 6 x 48x48x96 = 768 cu ft; 4,608 lb is exactly 6 pcf.
  {
    code: 'CUBIC_CAPACITY',
    name: 'not stackable: 6 x 48x48x55 at 2,600 lb cubed at 96 in, 768 cu ft',
    lines: [described({ pallets: 6, weight: 2600, dims: [48, 48, 55], stackable: false })],
    warns: true,
  },
  {
    code: 'CUBIC_CAPACITY',
    name: 'not stackable, on: 4,608 lb is exactly 6 pcf at 96 in',
    lines: [described({ pallets: 6, weight: 4608, dims: [48, 48, 55], stackable: false })],
    warns: false,
  },
  {
    code: 'CUBIC_CAPACITY',
    name: 'stackable: the same freight is 440 cu ft as declared',
    lines: [described({ pallets: 6, weight: 2600, dims: [48, 48, 55], stackable: true })],
    warns: false,
  },
  // 6 pallets two across: three rows.
  { code: 'LINEAR_FEET', name: 'on: 6 x 48 in is exactly 12 ft', lines: [described({ pallets: 6, weight: 3000, dims: [48, 40, 48] })], warns: false },
  { code: 'LINEAR_FEET', name: 'below: 6 x 47 in', lines: [described({ pallets: 6, weight: 3000, dims: [47, 40, 48] })], warns: false },
  { code: 'LINEAR_FEET', name: 'above: 6 x 48.5 in', lines: [described({ pallets: 6, weight: 3000, dims: [48.5, 40, 48] })], warns: true },
  { code: 'OVERLENGTH', name: 'on: 96 in long', lines: [described({ pallets: 1, weight: 500, dims: [96, 40, 40] })], warns: true, refused: true },
  { code: 'OVERLENGTH', name: 'below: 95 in long', lines: [described({ pallets: 1, weight: 500, dims: [95, 40, 40] })], warns: false },
  { code: 'OVERLENGTH', name: 'above: 97 in long', lines: [described({ pallets: 1, weight: 500, dims: [97, 40, 40] })], warns: true, refused: true },
  { code: 'NO_DESCRIPTION', name: 'described', lines: [described({ pallets: 1, weight: 1000, dims: [48, 40, 48] })], warns: false },
  { code: 'NO_DESCRIPTION', name: 'neither description nor NMFC', lines: [{ pallets: 1, weight: 1000, dims: [48, 40, 48] }], warns: true },
];

/** `pallets=1,weight=980,dims=48x48x48,desc=Machine parts[,stackable=false]` */
export function componentSpec(line: Line): string {
  return [
    `pallets=${line.pallets}`,
    `weight=${line.weight}`,
    `dims=${line.dims.join('x')}`,
    ...(line.desc ? [`desc=${line.desc}`] : []),
    ...(line.stackable !== undefined ? [`stackable=${line.stackable}`] : []),
  ].join(',');
}

export function componentJson(line: Line): Record<string, unknown> {
  return {
    palletCount: line.pallets,
    poundsWeight: line.weight,
    dimensions: { length: line.dims[0], width: line.dims[1], height: line.dims[2] },
    ...(line.desc ? { description: line.desc } : {}),
    ...(line.stackable !== undefined ? { stackable: line.stackable } : {}),
  };
}

export const TARIFF: Tariff = tariffSchema.parse(JSON.parse(readFileSync(new URL('../../templates/tariff/default.json', import.meta.url), 'utf8')));

/**
 * The price an inspector's bill would come to, read from the rating rules (priceShipment on the
 * shipped tariff), independently of the check: the risk class on the line, the minimum weight on
 * the shipment, or the overlength fee on top.
 */
export function expectedAtRisk(
  record: Pick<Quote, 'orderComponents' | 'miles' | 'accessorials'> & ({ quotedPriceInCents: number } | { totalPriceInCents: number }),
  warning: Warning,
): number {
  // A quote's price, or a shipment's (the price of the quote it was booked on).
  const quote = { ...record, quotedPriceInCents: 'quotedPriceInCents' in record ? record.quotedPriceInCents : record.totalPriceInCents };
  const price = (components: RatedOrderComponent[]) => priceShipment(components, quote.miles, quote.accessorials, TARIFF).quotedPriceInCents;
  const detail = warning.detail ?? {};
  if (warning.code === 'OVERLENGTH') return quote.quotedPriceInCents + Number(detail.feeInCents);
  if (warning.code === 'CUBIC_CAPACITY' || warning.code === 'LINEAR_FEET') {
    const total = quote.orderComponents.reduce((sum, component) => sum + component.poundsWeight, 0);
    const factor = Math.max(1, Number(detail.minimumPounds) / total);
    if (warning.code === 'LINEAR_FEET') return price(quote.orderComponents.map((component) => ({ ...component, poundsWeight: component.poundsWeight * factor })));
    // A minimum charge: the constructed weight at the rule's class (125), never below the quote.
    const freightClass = detail.ratedClass as RatedOrderComponent['freightClass'];
    return Math.max(quote.quotedPriceInCents, price(quote.orderComponents.map((component) => ({ ...component, poundsWeight: component.poundsWeight * factor, freightClass }))));
  }
  return price(
    quote.orderComponents.map((component, index) => (index === warning.line ? { ...component, freightClass: detail.riskClass as RatedOrderComponent['freightClass'] } : component)),
  );
}
