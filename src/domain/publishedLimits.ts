/**
 * The published limits and defaults of the Oway Shipper API (issue 40; reference/oway-shipper-api.openapi.json):
 * what `PUT /v1/shipper/shipment/{orderNumber}/confirm` checks of the freight, the pallet size a
 * component may have, what an omitted `dimensions` becomes, how long a quote is valid and a stop's
 * hours when none are given. One settings object with the published values as defaults, so that a
 * caller can override them (the document says of the pallet limits "subject to change, these are
 * configurable"). Pure and free of zod.
 *
 * `poundsWeight` is the component's TOTAL weight in shipper (its product spec). The published
 * schema text says "weight per pallet", but its own confirm rule sums the components' poundsWeight
 * to the order's total weight, which only a component's total can do; so the weight of one pallet
 * is poundsWeight / palletCount, and that is what must be 1 to 2,500 lb.
 */
import { formatLimit } from './limits.js';
import { warning, type Warning } from './warnings.js';

/** A violation as the published ProblemDetail writes it: the path of the field and why. */
export interface FieldViolation {
  field: string;
  reason: string;
}

/** A pallet's length, width and height, in inches. */
export interface PalletSize {
  length: number;
  width: number;
  height: number;
}

export interface PublishedLimits {
  /** "Quotes are valid for 2 days from creation." */
  quoteValidDays: number;
  /** An order's pallets, all components together ("totalPalletCount - Must be between 1 and 51"). */
  minPalletsPerOrder: number;
  maxPalletsPerOrder: number;
  /** One pallet's weight: poundsWeight / palletCount ("between 1 and 2,500 lbs per pallet"). */
  minPoundsPerPallet: number;
  maxPoundsPerPallet: number;
  /** "Standard: max 60x52x94 inches (LxWxH) - pallets exceeding these are charged as oversized": a warning. */
  standardPallet: PalletSize;
  /** "With liftgate: max 62x62x94 inches": a violation when a stop needs a liftgate. */
  liftgatePallet: PalletSize;
  /** "Oversized maximum: 95x95x96 inches - no pallet can exceed this": a violation. */
  oversizePallet: PalletSize;
  /** "If both 'palletDimensions' and 'dimensions' are omitted, the API defaults to 40 x 48 x 60 in. (length x width x height)." */
  defaultPallet: PalletSize;
  /** A stop's hours when none are given (Address.openTime, closeTime: "Defaults to 10:00", "Defaults to 16:00"). */
  defaultOpenTime: string;
  defaultCloseTime: string;
}

/** The published values. */
export const PUBLISHED_LIMITS: Readonly<PublishedLimits> = Object.freeze({
  quoteValidDays: 2,
  minPalletsPerOrder: 1,
  maxPalletsPerOrder: 51,
  minPoundsPerPallet: 1,
  maxPoundsPerPallet: 2500,
  standardPallet: Object.freeze({ length: 60, width: 52, height: 94 }),
  liftgatePallet: Object.freeze({ length: 62, width: 62, height: 94 }),
  oversizePallet: Object.freeze({ length: 95, width: 95, height: 96 }),
  defaultPallet: Object.freeze({ length: 40, width: 48, height: 60 }),
  defaultOpenTime: '10:00',
  defaultCloseTime: '16:00',
});

/** The published values with the caller's overrides (a settings file, a carrier's own limits). */
export function publishedLimits(overrides: Partial<PublishedLimits> = {}): PublishedLimits {
  const defined = Object.fromEntries(Object.entries(overrides).filter(([, value]) => value !== undefined));
  return { ...PUBLISHED_LIMITS, ...defined };
}

/** When a quote created at `createdAt` stops being valid: quoteValidDays x 24 hours later (ISO-8601 UTC). */
export function quoteValidUntil(createdAt: Date, limits: Pick<PublishedLimits, 'quoteValidDays'> = PUBLISHED_LIMITS): string {
  return new Date(createdAt.getTime() + limits.quoteValidDays * 86_400_000).toISOString();
}

/** `1 pallet`, `2 pallets`, `1,200 pallets`. */
function pallets(count: number): string {
  return `${formatLimit(count)} pallet${count === 1 ? '' : 's'}`;
}

/** `60x52x94 in`. */
export function formatPalletSize(size: PalletSize): string {
  return `${size.length}x${size.width}x${size.height} in`;
}

/**
 * Whether a pallet fits within a limit. Length and width are its footprint, which a forklift can
 * turn: the longer side is held to the limit's longer side and the shorter to the shorter, so a
 * 52x60 pallet is as standard as a 60x52 one. The height is a height. On the limit is within it.
 */
export function fitsWithin(size: PalletSize, limit: PalletSize): boolean {
  return (
    Math.max(size.length, size.width) <= Math.max(limit.length, limit.width) &&
    Math.min(size.length, size.width) <= Math.min(limit.length, limit.width) &&
    size.height <= limit.height
  );
}

/** What a component gives of its pallet size: each measure may be missing. */
export interface DimensionsInput {
  length?: number | null | undefined;
  width?: number | null | undefined;
  height?: number | null | undefined;
}

export interface ComponentInput {
  palletCount: number;
  /** The component's total weight (all its pallets), in pounds. */
  poundsWeight: number;
  dimensions?: DimensionsInput | null | undefined;
}

export interface ComponentCheckOptions {
  /** The component's index in orderComponents: its paths and its warnings' `line`. */
  index: number;
  /** A liftgate at either stop (pickupAddress or deliveryAddress liftgateRequired): every pallet passes over its platform. */
  liftgateRequired?: boolean;
  /** Where the dimensions were sent, under the component: `dimensions` unless the caller read them elsewhere (the deprecated palletDimensions). */
  dimensionsField?: string;
  limits?: PublishedLimits;
}

export interface ComponentCheck {
  /** The pallet size the component is rated and checked at: as sent, or the default when none (or part of one) was sent. */
  dimensions: PalletSize;
  violations: FieldViolation[];
  warnings: Warning[];
}

const MEASURES = ['length', 'width', 'height'] as const;

/** A real measure: a finite number above 0 (the schema refuses the others; here they count as not given). */
function isMeasure(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0;
}

/**
 * The pallet size of a component: its dimensions when all three are given; otherwise the default
 * (40x48x60 in) with DIMENSIONS_ASSUMED, since the density, and so the class, then rests on an
 * assumption. As published, a dimensions object missing any measure is treated as missing whole.
 */
export function palletSizeOf(
  component: Pick<ComponentInput, 'dimensions'>,
  options: Pick<ComponentCheckOptions, 'index' | 'dimensionsField' | 'limits'>,
): { dimensions: PalletSize; warnings: Warning[] } {
  const limits = options.limits ?? PUBLISHED_LIMITS;
  const sent = component.dimensions ?? null;
  if (sent && MEASURES.every((measure) => isMeasure(sent[measure]))) {
    return { dimensions: { length: sent.length as number, width: sent.width as number, height: sent.height as number }, warnings: [] };
  }
  const field = `orderComponents[${options.index}].${options.dimensionsField ?? 'dimensions'}`;
  const missing = sent ? MEASURES.filter((measure) => !isMeasure(sent[measure])) : [];
  const assumed = { ...limits.defaultPallet };
  const why = sent ? `${field} has no ${missing.join(' or ')}, so the whole of it is set aside` : `${field} was not given`;
  return {
    dimensions: assumed,
    warnings: [
      warning(
        'DIMENSIONS_ASSUMED',
        `line ${options.index + 1}: ${why}: each pallet is taken as ${formatPalletSize(assumed)}, and its class rests on that assumption; send the measured dimensions`,
        {
          field,
          line: options.index,
          detail: { length: assumed.length, width: assumed.width, height: assumed.height },
        },
      ),
    ],
  };
}

/**
 * The published rules of one component: at least one pallet, 1 to 2,500 lb per pallet, a pallet
 * size within 95x95x96 in (62x62x94 in when a stop needs a liftgate), and beyond 60x52x94 in a
 * warning that it is charged as oversize. The pallet size is the default one (with its warning)
 * when none was sent.
 */
export function checkComponent(component: ComponentInput, options: ComponentCheckOptions): ComponentCheck {
  const limits = options.limits ?? PUBLISHED_LIMITS;
  const path = `orderComponents[${options.index}]`;
  const violations: FieldViolation[] = [];
  const { palletCount, poundsWeight } = component;

  const countIsValid = Number.isInteger(palletCount) && palletCount >= 1;
  if (!countIsValid) violations.push({ field: `${path}.palletCount`, reason: `palletCount must be a whole number of at least 1 (got ${String(palletCount)})` });
  if (!Number.isFinite(poundsWeight)) {
    violations.push({ field: `${path}.poundsWeight`, reason: `poundsWeight must be a number of pounds (got ${String(poundsWeight)})` });
  } else if (countIsValid) {
    // The weight per pallet is for the words; the limits are compared as products, with no rounding: 2,500 lb on each of 3 pallets is exactly 7,500 lb.
    const perPallet = Math.round((poundsWeight / palletCount) * 100) / 100;
    const on = `${formatLimit(poundsWeight)} lb on ${pallets(palletCount)} is ${formatLimit(perPallet)} lb per pallet`;
    if (poundsWeight < limits.minPoundsPerPallet * palletCount) {
      violations.push({
        field: `${path}.poundsWeight`,
        reason: `${on}; a pallet weighs at least ${formatLimit(limits.minPoundsPerPallet)} lb (poundsWeight is the weight of all the component's pallets)`,
      });
    } else if (poundsWeight > limits.maxPoundsPerPallet * palletCount) {
      violations.push({
        field: `${path}.poundsWeight`,
        reason: `${on}; a pallet weighs at most ${formatLimit(limits.maxPoundsPerPallet)} lb (poundsWeight is the weight of all the component's pallets)`,
      });
    }
  }

  const { dimensions, warnings } = palletSizeOf(component, options);
  const field = `${path}.${options.dimensionsField ?? 'dimensions'}`;
  const size = formatPalletSize(dimensions);
  if (!fitsWithin(dimensions, limits.oversizePallet)) {
    violations.push({ field, reason: `a pallet of ${size} is beyond ${formatPalletSize(limits.oversizePallet)}, the largest pallet carried` });
  } else if (options.liftgateRequired && !fitsWithin(dimensions, limits.liftgatePallet)) {
    violations.push({ field, reason: `a pallet of ${size} is beyond ${formatPalletSize(limits.liftgatePallet)}, the largest a liftgate takes (a stop has liftgateRequired)` });
  } else if (!fitsWithin(dimensions, limits.standardPallet)) {
    warnings.push(
      warning('OVERSIZE_PALLET', `line ${options.index + 1}: a pallet of ${size} is beyond the standard ${formatPalletSize(limits.standardPallet)}: it is charged as oversize`, {
        field,
        line: options.index,
        detail: {
          length: dimensions.length,
          width: dimensions.width,
          height: dimensions.height,
          standardLength: limits.standardPallet.length,
          standardWidth: limits.standardPallet.width,
          standardHeight: limits.standardPallet.height,
        },
      }),
    );
  }
  return { dimensions, violations, warnings };
}

/** The order's pallets, all components together: 1 to 51. Named on `orderComponents`, since the total is no field of the request. */
export function orderPalletViolations(components: ReadonlyArray<Pick<ComponentInput, 'palletCount'>>, limits: PublishedLimits = PUBLISHED_LIMITS): FieldViolation[] {
  const total = components.reduce((sum, component) => sum + (Number.isFinite(component.palletCount) ? component.palletCount : 0), 0);
  if (total < limits.minPalletsPerOrder) {
    return [{ field: 'orderComponents', reason: `the order has ${pallets(total)}; it needs at least ${pallets(limits.minPalletsPerOrder)}` }];
  }
  if (total > limits.maxPalletsPerOrder) {
    return [{ field: 'orderComponents', reason: `the order components have ${pallets(total)} together; an order has at most ${pallets(limits.maxPalletsPerOrder)}` }];
  }
  return [];
}

/** What the published freight rules read of a quote or an order: its stops' liftgates and its lines. */
export interface FreightRequest {
  pickupAddress?: { liftgateRequired?: boolean | null | undefined } | null | undefined;
  deliveryAddress?: { liftgateRequired?: boolean | null | undefined } | null | undefined;
  accessorials?: readonly string[] | undefined;
  orderComponents: readonly ComponentInput[];
}

/** A liftgate at either stop: an address's liftgateRequired or the accessorial code of one. */
function needsLiftgate(request: FreightRequest): boolean {
  if (request.pickupAddress?.liftgateRequired === true || request.deliveryAddress?.liftgateRequired === true) return true;
  return (request.accessorials ?? []).some((code) => code === 'LIFTGATE_PICKUP' || code === 'LIFTGATE_DELIVERY');
}

/**
 * The published limits a quote and an order are held to when they are made, the same as confirm
 * holds them to (so no quote prices freight its order could not confirm): 1 to 51 pallets in all,
 * 1 to 2,500 lb per pallet, pallet sizes within 95x95x96 in (62x62x94 in with a liftgate); beyond
 * the standard 60x52x94 in an OVERSIZE_PALLET warning. The lines are as parsed (an omitted size is
 * already the default pallet: its warning is the parse's).
 */
export function publishedFreightCheck(request: FreightRequest, limits: PublishedLimits = PUBLISHED_LIMITS): { violations: FieldViolation[]; warnings: Warning[] } {
  const liftgateRequired = needsLiftgate(request);
  const violations = orderPalletViolations(request.orderComponents, limits);
  const warnings: Warning[] = [];
  request.orderComponents.forEach((component, index) => {
    const checked = checkComponent(component, { index, liftgateRequired, limits });
    violations.push(...checked.violations);
    warnings.push(...checked.warnings);
  });
  return { violations, warnings };
}
