/**
 * The zod schemas of the Shipper Freight API: the single source of validation, TypeScript types and
 * (through zod's JSON Schema output) the OpenAPI document. Pure: no I/O.
 *
 * Request schemas are strict: an unknown field is a violation on its own path (with the known
 * field it most likely means, see validation.ts), so a typo such as `accesorials` can never
 * silently change a price. `freightClass` is known, and refused with its own message: it is
 * computed from density. Record and response schemas stay lenient (additive versioning).
 */
import { z } from 'zod';
import { warningSchema } from './warningSchema.js';
import { withoutControlCharacters } from './controlCharacters.js';
import { carrierRecordShape, carrierRequestShape, contactPhoneSchema, emergencyPhoneViolation, hazmatSchema, SCAC_PATTERN, storedHazmatSchema, type Hazmat } from './carrier.js';
import { pricedBySchema, quoteCarrierSchema } from './pricedBy.js';
import {
  FREIGHT_LIMITS,
  formatLimit,
  IDEMPOTENCY_KEY_PATTERN,
  MAX_BATCH_COMPONENTS,
  MAX_BATCH_ITEMS,
  MAX_TRANSIT_DESTINATIONS,
  MAX_TRANSIT_LANE_DAYS,
  MAX_TRANSIT_PICKUP_DAYS,
} from './limits.js';
import { ORDER_STATUSES, QUOTE_STATUSES, TRACKING_STATUSES } from './statuses.js';
import { ZIP_CODE_PATTERN } from './zipCode.js';
import { DATE_PATTERN, isCalendarDate } from './dates.js';
import { onFirstUse } from './schemaOnFirstUse.js';
import { STORE_TIME_PATTERN } from './storeHours.js';
import { PUBLISHED_LIMITS } from './publishedLimits.js';
import { normalisePhoneNumber } from './phone.js';
import { DEFAULT_COMPANY_ID } from './companies.js';

// ---------------------------------------------------------------------------------------------
// Scalars

/**
 * A number, with the messages people read: required, not a number, or not finite (Infinity, NaN,
 * or text such as "1e400" that only reads as a number beyond the largest one).
 */
const numberField = (what: string) =>
  z.number({
    error: (issue) => {
      if (issue.input === undefined) return `${what} is required`;
      const overflows = typeof issue.input === 'string' && /^\s*[+-]?(\d|\.\d)/.test(issue.input) && Math.abs(Number(issue.input)) === Infinity;
      return typeof issue.input === 'number' || overflows ? `${what} must be a finite number` : `${what} must be a number`;
    },
  });

/** A quantity within the freight limits (limits.ts), each bound stated in its message and in the JSON Schema. */
const boundedQuantity = (what: string, unit: string, min: number, max: number, why: string) =>
  numberField(what)
    .min(min, { message: `${what} must be at least ${formatLimit(min)} ${unit}` })
    .max(max, { message: `${what} must be at most ${formatLimit(max)} ${unit} (${why})` });

const dimension = (side: 'length' | 'width' | 'height') => {
  const { minDimensionInches: min } = FREIGHT_LIMITS;
  if (side === 'length') return boundedQuantity(side, 'in', min, FREIGHT_LIMITS.maxLengthInches, 'the inside length of a 53 ft trailer');
  if (side === 'width') return boundedQuantity(side, 'in', min, FREIGHT_LIMITS.maxWidthInches, "a trailer's width; give the longer side as length");
  return boundedQuantity(side, 'in', min, FREIGHT_LIMITS.maxHeightInches, 'the inside height of a 53 ft trailer');
};

export const isoDateSchema = z
  .string()
  .regex(DATE_PATTERN, { error: (issue) => `${JSON.stringify(issue.input)} is not a date written YYYY-MM-DD`, abort: true })
  .refine((value) => isCalendarDate(value), { error: (issue) => `${String(issue.input)} is not a real calendar date` })
  .meta({ description: 'A calendar date, YYYY-MM-DD', example: '2026-11-23' });

/**
 * A pickup day as sent: a date, or (as the published document writes it) a date-time, whose day
 * at the pickup the engine takes (quotes.ts).
 */
export const pickupDateSchema = z
  .string({ error: 'must be a date YYYY-MM-DD or a date-time' })
  .refine(
    (value) =>
      value.length === 10
        ? isoDateSchema.safeParse(value).success
        : /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(value) && !Number.isNaN(Date.parse(value)),
    {
      error: (issue) => `${JSON.stringify(issue.input)} is not a date (YYYY-MM-DD) or a date-time (2026-11-23T14:00:00Z)`,
    },
  )
  .meta({ description: 'A date YYYY-MM-DD, or a date-time; stored as the day at the pickup', example: '2026-11-23' });

export const instantSchema = z.string().meta({ description: 'An ISO-8601 UTC instant', example: '2026-11-23T22:00:00.000Z', format: 'date-time' });

/** The NMFC classes of the 13-subprovision density scale, written as carriers write them. */
export const FREIGHT_CLASSES = ['50', '55', '60', '65', '70', '85', '92.5', '100', '125', '175', '250', '300', '400'] as const;
export const freightClassSchema = z.enum(FREIGHT_CLASSES).meta({
  description: 'LTL freight class computed from density (NMFC 13-subprovision scale); never an input',
});
export type FreightClass = z.infer<typeof freightClassSchema>;

/**
 * All 18 NMFC classes, those of the 13-subprovision scale and 77.5, 110, 150, 200, 500 besides:
 * carriers' tariffs, base rates and FAK ranges are written over all of them (issue 39), while
 * density yields only the 13.
 */
export const NMFC_CLASSES = ['50', '55', '60', '65', '70', '77.5', '85', '92.5', '100', '110', '125', '150', '175', '200', '250', '300', '400', '500'] as const;
export type NmfcClass = (typeof NMFC_CLASSES)[number];

// ---------------------------------------------------------------------------------------------
// Order components

export const dimensionsSchema = z
  .strictObject({
    length: dimension('length'),
    width: dimension('width'),
    height: dimension('height'),
  })
  .meta({ description: 'Dimensions of ONE pallet (handling unit), in inches' });
export type Dimensions = z.infer<typeof dimensionsSchema>;

/**
 * Dimensions as stored on quotes and shipments: no request limits, so a record booked under other
 * limits stays readable.
 */
export const storedDimensionsSchema = z
  .object({ length: z.number().positive(), width: z.number().positive(), height: z.number().positive() })
  .meta({ description: 'Dimensions of ONE pallet (handling unit), in inches' });

/** Text of at most `max` characters without the control characters its kind refuses. */
const boundedText = (max: number, multiLine: boolean) =>
  withoutControlCharacters(z.string({ error: 'must be a string' }), multiLine).max(max, { message: `must be at most ${max} characters` });

/**
 * Text that may be absent: null when absent, null or empty. A default and a check in place rather
 * than a transform, which zod runs as a pipe of steps for every such field of every request.
 */
const optionalText = (max: number, description: string, multiLine = false) =>
  boundedText(max, multiLine)
    // Empty is null: typed as the string it replaces, which the nullable around it makes string | null.
    .overwrite((value) => (value === '' ? (null as unknown as string) : value))
    .nullable()
    .default(null)
    .meta({ description });

/**
 * optionalText as sent, for objects that read it as null themselves (an order component: its own
 * transform). Each transform is a pipe of zod's, a third of a request's parse when every text
 * of every line had one.
 */
const optionalRawText = (max: number, description: string, multiLine = false) => boundedText(max, multiLine).nullish().meta({ description });

/** Fields that the freight itself is made of; a shipment against a quote must repeat them exactly. */
const componentBaseShape = {
  palletCount: numberField('palletCount')
    .int({ message: 'palletCount must be a whole number' })
    .min(1, { message: 'palletCount must be at least 1' })
    .max(FREIGHT_LIMITS.maxHandlingUnits, {
      message: `palletCount must be at most ${FREIGHT_LIMITS.maxHandlingUnits} (a 53 ft trailer holds ${FREIGHT_LIMITS.maxHandlingUnits} pallets double-stacked)`,
    })
    .meta({ description: 'Number of pallets (handling units) in the component' }),
  poundsWeight: boundedQuantity('poundsWeight', 'lb', FREIGHT_LIMITS.minPoundsWeight, FREIGHT_LIMITS.maxPoundsWeight, 'the legal payload of a 53 ft trailer').meta({
    description: 'Total weight of the component (all its pallets), in pounds',
  }),
  dimensions: dimensionsSchema.optional(),
  palletDimensions: z
    .tuple([dimension('length'), dimension('width'), dimension('height')], {
      error: 'palletDimensions must be an array [length, width, height]',
    })
    .optional()
    .meta({
      deprecated: true,
      description: 'DEPRECATED: positional [length, width, height] in inches; send `dimensions` instead',
    }),
  // Several lines allowed (a CSV cell with quoted line breaks): the BOL prints them on one row.
  description: optionalRawText(256, 'Per-line description; each component is its own row on the BOL', true),
  nmfcCode: optionalRawText(32, 'NMFC commodity code'),
  packagingType: optionalRawText(32, 'Packaging type, free text: pallets, boxes, crates, bags...'),
  pieceCount: z
    .number({ error: 'pieceCount must be a number' })
    .int({ message: 'pieceCount must be a whole number' })
    .min(0, { message: 'pieceCount must be 0 or more' })
    .max(FREIGHT_LIMITS.maxPieceCount, { message: `pieceCount must be at most ${formatLimit(FREIGHT_LIMITS.maxPieceCount)}` })
    .nullish()
    .meta({ description: 'Loose pieces inside the component, separate from palletCount; 0 is allowed' }),
  stackable: z.boolean({ error: 'stackable is true or false' }).optional().meta({
    description:
      'false: the units must not have freight loaded on them (classed at 96 in high, NON_STACKABLE_HEIGHT); true: they may be stacked two high (LINEAR_FEET); absent: not known (not stacked)',
  }),
  hazmat: hazmatSchema.nullish().meta({ description: 'Hazardous material on this line (49 CFR 172.202); the shipment then needs emergencyContactPhone' }),
  freightClass: z
    .never({ error: 'freightClass is computed from density at quote time and cannot be sent' })
    .optional()
    .meta({ description: 'Refused: the class is computed from density' }),
};

/**
 * An order component as sent by a client. After parsing it is normalised: `dimensions` is always
 * set (from `palletDimensions` when only that was sent) and the optional per-line fields are null
 * when absent.
 */
export const orderComponentInputSchema = z
  .strictObject(componentBaseShape)
  .superRefine(
    (component, ctx) => {
      // Runs on any input (when: true): a list or a scalar is refused as a whole, not for its dimensions.
      if (typeof component !== 'object' || component === null || Array.isArray(component)) return;
      // Neither given: the published default pallet (the transform), with DIMENSIONS_ASSUMED (validation.ts).
      const { dimensions, palletDimensions } = component as { dimensions?: unknown; palletDimensions?: unknown };
      if (isDimensions(dimensions) && isTriple(palletDimensions)) {
        const [length, width, height] = palletDimensions;
        if (dimensions.length !== length || dimensions.width !== width || dimensions.height !== height) {
          ctx.addIssue({
            code: 'custom',
            path: ['palletDimensions'],
            message: `palletDimensions ${palletDimensions.join('x')} differ from dimensions ${dimensions.length}x${dimensions.width}x${dimensions.height}; send dimensions only`,
          });
        }
      }
    },
    { when: () => true },
  )
  // Member by member, without a rest pattern or a spread: it runs for every line of every request.
  .transform((component) => {
    const { palletDimensions, dimensions } = component;
    const line: {
      palletCount: number;
      poundsWeight: number;
      dimensions: Dimensions;
      description: string | null;
      nmfcCode: string | null;
      packagingType: string | null;
      pieceCount: number | null;
      hazmat: Hazmat | null;
      stackable?: boolean;
    } = {
      palletCount: component.palletCount,
      poundsWeight: component.poundsWeight,
      dimensions:
        dimensions ?? (palletDimensions ? { length: palletDimensions[0], width: palletDimensions[1], height: palletDimensions[2] } : { ...PUBLISHED_LIMITS.defaultPallet }),
      // Absent, null or (text) empty: null.
      description: component.description || null,
      nmfcCode: component.nmfcCode || null,
      packagingType: component.packagingType || null,
      pieceCount: component.pieceCount ?? null,
      hazmat: component.hazmat ?? null,
    };
    if (component.stackable !== undefined) line.stackable = component.stackable;
    return line;
  });
export type OrderComponentInput = z.input<typeof orderComponentInputSchema>;
export type OrderComponent = z.output<typeof orderComponentInputSchema>;

function isDimensions(value: unknown): value is Dimensions {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return ['length', 'width', 'height'].every((key) => typeof record[key] === 'number');
}
function isTriple(value: unknown): value is [number, number, number] {
  return Array.isArray(value) && value.length === 3 && value.every((item) => typeof item === 'number');
}

/** A component as stored on quotes and shipments: normalised, with its computed class. */
export const ratedOrderComponentSchema = z.object({
  palletCount: z.number().int(),
  poundsWeight: z.number(),
  dimensions: storedDimensionsSchema,
  description: z.string().nullable(),
  nmfcCode: z.string().nullable(),
  packagingType: z.string().nullable(),
  pieceCount: z.number().int().nullable(),
  hazmat: storedHazmatSchema.nullable().default(null),
  stackable: z.boolean().optional().meta({ description: 'As sent: false for non-stackable units; absent when not said' }),
  densityPcf: z.number().meta({ description: 'Density in pounds per cubic foot, rounded to 2 decimals' }),
  freightClass: freightClassSchema,
});
export type RatedOrderComponent = z.infer<typeof ratedOrderComponentSchema>;

const orderComponentsSchema = z
  .array(orderComponentInputSchema, {
    error: (issue) => (issue.input === undefined ? 'orderComponents is required' : 'orderComponents must be a list'),
  })
  .min(1, { message: 'at least one order component is required' })
  .max(FREIGHT_LIMITS.maxOrderComponents, { message: `at most ${FREIGHT_LIMITS.maxOrderComponents} order components per shipment` })
  .superRefine((components, ctx) => {
    // The shipment as a whole fits one trailer; lines already over a limit are named on their own paths.
    const total = (field: 'poundsWeight' | 'palletCount', lineMax: number) =>
      components.every((component) => Number.isFinite(component?.[field]) && component[field] <= lineMax) ? components.reduce((sum, component) => sum + component[field], 0) : 0;
    const pounds = total('poundsWeight', FREIGHT_LIMITS.maxPoundsWeight);
    if (pounds > FREIGHT_LIMITS.maxPoundsWeight) {
      ctx.addIssue({
        code: 'custom',
        message: `the order components weigh ${formatLimit(Math.round(pounds * 100) / 100)} lb together; one shipment carries at most ${formatLimit(FREIGHT_LIMITS.maxPoundsWeight)} lb (the legal payload of a 53 ft trailer): split it into several shipments`,
      });
    }
    const pallets = total('palletCount', FREIGHT_LIMITS.maxHandlingUnits);
    if (pallets > FREIGHT_LIMITS.maxHandlingUnits) {
      ctx.addIssue({
        code: 'custom',
        message: `the order components have ${formatLimit(pallets)} pallets together; one shipment has at most ${FREIGHT_LIMITS.maxHandlingUnits} (a 53 ft trailer double-stacked): split it into several shipments`,
      });
    }
  });

// ---------------------------------------------------------------------------------------------
// Places and addresses

export const postalCodeSchema = z
  .string({ error: (issue) => (issue.input === undefined ? 'zipCode is required' : 'zipCode must be a string') })
  .trim()
  .regex(ZIP_CODE_PATTERN, { message: 'must be a 5-digit US ZIP code (ZIP+4 accepted)' })
  // In place (a check of zod's), not a transform: no pipe for the two ZIPs of every request.
  .overwrite((value) => value.slice(0, 5))
  .meta({ description: 'US ZIP code; ZIP+4 is accepted and reduced to 5 digits', example: '60601' });

export const countryCodeSchema = z
  .literal('US', { error: 'only US postal codes are served (countryCode "US")' })
  .default('US')
  .meta({ description: 'ISO 3166-1 alpha-2 country code; the service covers the US' });

export const placeInputSchema = z.strictObject({
  zipCode: postalCodeSchema,
  countryCode: countryCodeSchema,
});

/**
 * A stop of a quote request: the ZIP prices it; the published Address's other fields may come
 * with it (a client written from the published document sends the whole address) and are judged
 * as an address's are, and the four service flags price as their accessorial codes.
 */
export const quoteStopSchema = onFirstUse(() =>
  z.strictObject({
    zipCode: postalCodeSchema,
    countryCode: countryCodeSchema,
    name: optionalRawText(100, 'Location or company name'),
    address1: optionalRawText(100, 'Street address'),
    address2: optionalRawText(100, 'Second address line'),
    city: optionalRawText(60, 'City'),
    state: z
      .string({ error: 'state must be a string' })
      .trim()
      .regex(/^[A-Za-z]{2}$/, { message: 'must be a 2-letter state code' })
      .toUpperCase()
      .optional(),
    contactPerson: optionalRawText(100, 'Contact person'),
    phoneNumber: phoneNumberSchema('Contact phone number'),
    ...publishedAddressShape(),
  }),
);

export const placeSchema = z.object({
  zipCode: z.string(),
  countryCode: z.string(),
  city: z.string(),
  state: z.string(),
});

/**
 * An address's phone as the published Address writes it, E.164: what a person types
 * (`312-555-0100`, `(312) 555-0100`) is read as a US number and written `+13125550100`
 * (phone.ts). A number of a possible length is taken, as the published pattern takes the
 * document's own `+15551234567`; text that is no phone number is a violation on the field. An
 * extension has no place in E.164 and is refused, never dropped: it goes in the address's notes.
 * Empty or absent: null.
 */
const phoneNumberSchema = (description: string) =>
  boundedText(32, false)
    .transform((value, ctx) => {
      if (value.trim() === '') return null;
      const read = normalisePhoneNumber(value, { accept: 'possible' });
      if (!read.ok) {
        ctx.addIssue({ code: 'custom', message: `${read.reason}; write it as +13125550100 or 312-555-0100` });
        return z.NEVER;
      }
      if (read.extension !== null) {
        ctx.addIssue({
          code: 'custom',
          message: `${JSON.stringify(value.trim())} has an extension (${read.extension}), which E.164 has no place for: send the number alone and the extension in notes`,
        });
        return z.NEVER;
      }
      return read.phoneNumber;
    })
    .nullish()
    .meta({ description: `${description}, E.164 (+13125550100); a US number as people write it (312-555-0100) is read and answered as E.164` });

const requiredText = (field: string, max: number) =>
  withoutControlCharacters(z.string({ error: (issue) => (issue.input === undefined ? `${field} is required` : `${field} must be a string`) }).trim())
    .min(1, { message: `${field} is required` })
    .max(max, { message: `must be at most ${max} characters` });

/** An opening or closing time, HH:mm (storeHours.ts). */
const storeTimeSchema = (what: string, fallback: string) =>
  z
    .string({ error: `${what} must be a time HH:mm` })
    .trim()
    .regex(STORE_TIME_PATTERN, { message: `${what} must be a time HH:mm, e.g. ${fallback}` })
    .optional()
    .meta({ description: `${what === 'openTime' ? 'Opening' : 'Closing'} time at the stop, HH:mm; ${fallback} when absent` });

const addressFlag = (what: string, description: string) =>
  z
    .boolean({ error: `${what} is true or false` })
    .optional()
    .meta({ description });

/**
 * The published Address's fields beyond the postal ones, optional (absent stays absent in
 * records): the stop's hours, notes, and the four services the published wire writes as booleans
 * (addressAccessorials.ts maps them to and from accessorial codes).
 */
function publishedAddressShape() {
  return {
    openTime: storeTimeSchema('openTime', '10:00'),
    closeTime: storeTimeSchema('closeTime', '16:00'),
    notes: withoutControlCharacters(z.string({ error: 'notes must be a string' }).trim(), true)
      .max(500, { message: 'must be at most 500 characters' })
      .optional()
      .meta({ description: 'Notes for the driver at this stop' }),
    liftgateRequired: addressFlag('liftgateRequired', 'A liftgate is needed at this stop (LIFTGATE_PICKUP or LIFTGATE_DELIVERY)'),
    limitedAccess: addressFlag('limitedAccess', 'Limited access at this stop (LIMITED_ACCESS_PICKUP or LIMITED_ACCESS_DELIVERY)'),
    appointmentRequired: addressFlag('appointmentRequired', 'The stop takes freight by appointment (APPOINTMENT at the delivery)'),
    callAheadRequired: addressFlag('callAheadRequired', 'Call before arriving (NOTIFY at the delivery)'),
  };
}

const addressShape = {
  name: requiredText('name', 100),
  address1: requiredText('address1', 100),
  address2: optionalText(100, 'Second address line'),
  city: requiredText('city', 60),
  state: z
    .string({ error: 'state is required' })
    .trim()
    .regex(/^[A-Za-z]{2}$/, { message: 'must be a 2-letter state code' })
    .toUpperCase(),
  zipCode: postalCodeSchema,
  countryCode: countryCodeSchema,
  contactPerson: optionalText(100, 'Contact person'),
  phoneNumber: phoneNumberSchema('Contact phone number').transform((value) => value ?? null),
  ...publishedAddressShape(),
};
export const addressSchema = z.strictObject(addressShape);
/** Text as stored: a record written before control characters were refused still reads (views neutralise them: printable.ts). */
const storedText = z
  .string()
  .nullish()
  .transform((value) => (value === undefined || value === '' ? null : value));
/** An address as stored on shipments and answered: the same fields, lenient about new ones and about the text in them. */
export const storedAddressSchema = z.object({
  ...addressShape,
  name: z.string(),
  address1: z.string(),
  address2: storedText,
  city: z.string(),
  contactPerson: storedText,
  phoneNumber: storedText,
});
export type AddressInput = z.input<typeof addressSchema>;
export type Address = z.output<typeof addressSchema>;

// ---------------------------------------------------------------------------------------------
// Quotes

export const accessorialCodeSchema = z
  .string({ error: 'accessorial codes are strings' })
  .regex(/^[A-Z][A-Z0-9_]*$/, { message: 'accessorial codes are written in capitals, e.g. LIFTGATE_DELIVERY' })
  .meta({ description: 'Accessorial service code, e.g. LIFTGATE_PICKUP, LIFTGATE_DELIVERY, RESIDENTIAL_DELIVERY, INSIDE_DELIVERY, APPOINTMENT' });

/** Kept as sent (a repeated code counts once: rating.ts), so that `accessorials[i]` names the code the client sent at i. */
const accessorialsSchema = z
  .array(accessorialCodeSchema, { error: 'accessorials must be a list of codes' })
  .max(20)
  .optional()
  .transform((codes) => codes ?? []);

/** What a quote request holds: the published QuoteRequest's fields and shipper's additions. */
const quoteRequestShape = () => ({
  get pickupAddress() {
    return quoteStopSchema;
  },
  get deliveryAddress() {
    return quoteStopSchema;
  },
  requiredPickupDate: pickupDateSchema.optional().meta({ description: 'Pickup date (YYYY-MM-DD, or a date-time: its day at the pickup); default the next business day' }),
  accessorials: accessorialsSchema,
  orderComponents: orderComponentsSchema,
  carrierScac: z
    .string({ error: 'carrierScac must be a string' })
    .trim()
    .transform((value) => value.toUpperCase())
    .pipe(z.string().regex(SCAC_PATTERN, { message: 'a SCAC is 2 to 4 letters, e.g. ODFL' }))
    .optional()
    .meta({ description: "Price with this carrier's agreement (local engine: --tariffs DIR); without it the tariff prices" }),
});

export const quoteRequestSchema = z.strictObject(quoteRequestShape());
/**
 * The body of the lane quote (an extension): the same fields under a component of its own, its
 * stops a ZIP code alone if need be. The published operation holds its stops to the published
 * Address on the wire (publishedAddress.ts); the engine takes either.
 */
export const laneQuoteRequestSchema = z
  .strictObject(quoteRequestShape())
  .meta({ description: 'A quote request whose stops may be a ZIP code alone: the published QuoteRequest without the published Address required' });
export type QuoteRequestInput = z.input<typeof quoteRequestSchema>;
export type QuoteRequest = z.output<typeof quoteRequestSchema>;

export const accessorialChargeSchema = z.object({ code: z.string(), amountInCents: z.number().int() });

export const priceBreakdownSchema = z.object({
  linehaulInCents: z.number().int().meta({ description: 'Tariff linehaul before discount' }),
  discountInCents: z.number().int(),
  minimumChargeApplied: z.boolean(),
  fuelSurchargeInCents: z.number().int(),
  accessorialsInCents: z.array(accessorialChargeSchema),
  lineLinehaulsInCents: z
    .array(z.number().int())
    .optional()
    .meta({ description: 'Per order component, its share of linehaulInCents as priced (they add up to it); absent on records written before it existed' }),
});
export type PriceBreakdown = z.infer<typeof priceBreakdownSchema>;

/** In an answer (never stored): the call's coded warnings, the freight check's included (docs/warnings.md). */
const answeredWarnings = z
  .array(warningSchema)
  .optional()
  .meta({ description: "When answered: the call's warnings, each with a stable code (also sent as X-Shipper-Warning headers); not stored" });

export const quoteSchema = z.object({
  id: z.string().meta({ description: 'Quote identifier' }),
  quotedPriceInCents: z.number().int().meta({ description: 'Quoted price in cents' }),
  quoteExpirationTime: instantSchema.meta({ description: 'When the quote expires (ISO-8601 UTC)' }),
  transitDays: z.number().int().nullable().meta({ description: 'Business days to deliver after pickup; null without coverage' }),
  estimatedDeliveryDate: instantSchema.nullable().meta({ description: 'Delivery day at the destination cut-off, as a UTC instant; null without coverage' }),
  requiredPickupDate: isoDateSchema,
  pickupAddress: placeSchema,
  deliveryAddress: placeSchema,
  miles: z.number().int(),
  accessorials: z.array(z.string()),
  orderComponents: z.array(ratedOrderComponentSchema),
  priceBreakdown: priceBreakdownSchema,
  createdAt: instantSchema,
  companyId: z.string().default(DEFAULT_COMPANY_ID).meta({ description: 'The company the quote belongs to: the company of the key that asked for it' }),
  createdBy: z.string().optional().meta({ description: 'The id of the API key that asked for it (key_...); absent without a key' }),
  carrier: quoteCarrierSchema.optional(),
  pricedBy: pricedBySchema.optional(),
  status: z.enum(QUOTE_STATUSES).optional().meta({ description: 'When answered: OPEN (bookable until quoteExpirationTime), EXPIRED, or BOOKED (see bookings)' }),
  bookings: z
    .array(z.object({ shipmentId: z.string(), orderNumber: z.string(), orderStatus: z.enum(ORDER_STATUSES) }))
    .optional()
    .meta({ description: 'When answered: the shipments booked on this quote, cancelled ones included' }),
  warnings: answeredWarnings,
});
export type Quote = z.infer<typeof quoteSchema>;

// ---------------------------------------------------------------------------------------------
// Shipments

/** The published AppointmentContact: a name, required, and how to reach them. */
export const appointmentContactSchema = z.strictObject({
  name: z.string().max(200),
  email: z.string().max(320).optional(),
  phone: z.string().max(32).optional(),
  role: z.string().max(100).optional(),
});
/** The published AppointmentRequirementRequest: how the carrier books a stop's appointment (`notes`: shipper's name before `instructions`). */
export const appointmentRequirementSchema = z
  .strictObject({
    channel: z.enum(['PHONE', 'EMAIL', 'PORTAL'], { error: 'channel is PHONE, EMAIL or PORTAL' }),
    portalUrl: z.string().max(512).optional(),
    contacts: z.array(appointmentContactSchema).max(20).optional(),
    instructions: z.string().max(2000).optional(),
    referenceNumbers: z.array(z.string().max(64)).max(10).optional(),
    leadTimeHours: z.number().int().min(0).max(168).optional(),
    notes: z.string().max(1000).optional(),
  })
  .superRefine((value, ctx) => {
    if (value.channel === 'PORTAL' && !value.portalUrl) ctx.addIssue({ code: 'custom', path: ['portalUrl'], message: 'portalUrl is required when channel is PORTAL' });
    if (value.channel !== 'PORTAL' && value.portalUrl) ctx.addIssue({ code: 'custom', path: ['portalUrl'], message: 'portalUrl is given only when channel is PORTAL' });
  });

/** The published CreateShipmentRequest's fields beyond ours, optional here (a booking from the CLI may lack them). */
function publishedShipmentShape() {
  return {
    description: optionalText(256, 'What the order is, for the carrier (the published request requires it)', true),
    poNumber: optionalText(64, 'Purchase order number'),
    requiredDeliveryBy: z.iso
      .datetime({ offset: true, error: 'requiredDeliveryBy must be a date-time, e.g. 2026-11-25T17:00:00Z' })
      .optional()
      .meta({ description: 'Deliver by this instant' }),
    appointments: z
      .strictObject({ pickup: appointmentRequirementSchema.optional(), delivery: appointmentRequirementSchema.optional() })
      .optional()
      .meta({ description: "How each stop's appointment is scheduled, applied where that address has appointmentRequired" }),
    shipperDispatch: z
      .strictObject({
        name: requiredText('name', 200),
        email: z.string().max(320).optional(),
        phone: z
          .string()
          .max(32)
          .regex(/^\+[1-9]\d{1,14}$/, { message: 'phone must be E.164, e.g. +13125550100' })
          .optional(),
        scac: z
          .string()
          .regex(/^[A-Z]{2,4}$/, { message: 'a SCAC is 2 to 4 capital letters' })
          .optional(),
      })
      .optional()
      .meta({ description: "The shipper's own dispatch contact" }),
  };
}

export const shipmentRequestSchema = onFirstUse(() =>
  z
    .strictObject({
      quoteId: z.string().min(1).optional().meta({ description: 'Quote to book; without it the service quotes first' }),
      refNumber: withoutControlCharacters(z.string({ error: 'refNumber must be a string' }).trim())
        .max(64, { message: 'must be at most 64 characters' })
        .nullish()
        .transform((value) => (value ? value : null))
        .meta({ description: "The customer's reference; printed on partner BOLs as `<refNumber> (<order number>)`" }),
      pickupAddress: addressSchema,
      deliveryAddress: addressSchema,
      ...publishedShipmentShape(),
      specialInstructions: optionalText(1000, 'Special instructions printed on the BOL', true),
      requiredPickupDate: pickupDateSchema.optional().meta({ description: "Pickup date (YYYY-MM-DD, or a date-time: its day at the pickup); a quote's when booked on one" }),
      accessorials: accessorialsSchema,
      orderComponents: orderComponentsSchema,
      rebookQuote: z
        .boolean({ error: 'rebookQuote is true or false' })
        .optional()
        .meta({ description: 'Book a second shipment on a quote that already has an active one (refused otherwise, 409)' }),
      duplicateRefNumber: z
        .enum(['WARN', 'REFUSE'], { error: 'duplicateRefNumber is WARN or REFUSE' })
        .default('WARN')
        .meta({ description: 'When an active shipment already has this refNumber: book with a warning (WARN, the default) or refuse (REFUSE, 409)' }),
      ...carrierRequestShape(addressSchema),
    })
    .superRefine((request, ctx) => {
      const violation = emergencyPhoneViolation(request);
      if (violation) ctx.addIssue({ code: 'custom', path: [violation.field], message: violation.reason });
    }),
);
export type ShipmentRequestInput = z.input<typeof shipmentRequestSchema>;
export type ShipmentRequest = z.output<typeof shipmentRequestSchema>;

/** Where the freight is, beside the booking status: derived from the carrier's events (tracking.ts) when they are recorded. */
const trackingShape = {
  trackingStatus: z
    .enum(TRACKING_STATUSES)
    .default('NONE')
    .meta({ description: "Where the freight is, from the carrier's status messages: NONE until the first event; never demoted by an older event" }),
  deliveredAt: instantSchema.nullable().default(null).meta({ description: 'When the carrier delivered it (X12 AT7 D1 or the ITV Delivered milestone)' }),
  carrierEstimatedDeliveryDate: instantSchema.nullable().default(null).meta({ description: "The carrier's latest delivery ETA; the quote's is estimatedDeliveryDate" }),
};

export const shipmentSchema = z.object({
  id: z.string(),
  orderNumber: z.string().meta({ description: 'Internal order number, unique and never reused', example: 'SO-000123' }),
  bolNumber: z
    .string()
    .regex(/^\d{17}$/)
    .meta({ description: '17-digit VICS BOL number with a mod-10 check digit' }),
  refNumber: z.string().nullable(),
  orderStatus: z.enum(ORDER_STATUSES).meta({ description: 'The order state, as published: INITIALIZED, CONFIRMED, ACCEPTED, ASSIGNED, PICKED_UP, DELIVERED or CANCELLED' }),
  cancelledAt: instantSchema.nullable().default(null).meta({ description: 'When the shipment was cancelled; null while booked' }),
  cancellationReason: z.string().nullable().default(null),
  quoteId: z.string(),
  companyId: z.string().default(DEFAULT_COMPANY_ID).meta({ description: 'The company the order belongs to' }),
  userId: z.string().optional().meta({ description: 'Who created it; absent when no user is known (a local store, an API key without one)' }),
  createdBy: z.string().optional().meta({ description: 'The id of the API key that booked it (key_...); absent without a key' }),
  updatedBy: z.string().optional().meta({ description: 'The id of the API key of its last change (key_...); absent without a key' }),
  updatedAt: instantSchema.optional().meta({ description: 'When the order last changed; absent on records written before it was kept' }),
  description: z.string().nullable().default(null),
  poNumber: z.string().nullable().default(null),
  requiredDeliveryBy: z.string().nullable().default(null),
  appointments: z.looseObject({}).nullable().default(null),
  shipperDispatch: z.looseObject({ name: z.string() }).nullable().default(null),
  totalPriceInCents: z.number().int(),
  transitDays: z.number().int().nullable(),
  estimatedDeliveryDate: instantSchema.nullable(),
  requiredPickupDate: isoDateSchema,
  miles: z.number().int(),
  accessorials: z.array(z.string()),
  pickupAddress: storedAddressSchema,
  deliveryAddress: storedAddressSchema,
  specialInstructions: z.string().nullable(),
  orderComponents: z.array(ratedOrderComponentSchema),
  priceBreakdown: priceBreakdownSchema,
  createdAt: instantSchema,
  pricedBy: pricedBySchema.optional(),
  ...carrierRecordShape(storedAddressSchema),
  ssccs: z
    .array(z.string())
    .default([])
    .meta({ description: 'One SSCC per handling unit, in order (line by line), assigned at booking: the serial shipping container codes of its pallet labels' }),
  warnings: answeredWarnings,
  ...trackingShape,
});
export type Shipment = z.output<typeof shipmentSchema>;

/** What a booking's freight is made of: it cannot change after booking (cancel and book again). */
const FIXED_AFTER_BOOKING = [
  'quoteId',
  'refNumber',
  'pickupAddress',
  'deliveryAddress',
  'requiredPickupDate',
  'accessorials',
  'orderComponents',
  'specialInstructions',
  'freightChargeTerms',
  'declaredValue',
  'cod',
  'hazmat',
] as const;
const fixedField = (field: string) =>
  z
    .never({ error: `${field} cannot change after booking: it is on the BOL, the labels and the carrier's files; cancel the shipment and book it again` })
    .optional()
    .meta({ description: 'Refused: fixed at booking' });

const updatePhone = (description: string) =>
  contactPhoneSchema
    .nullish()
    .transform((value) => value ?? null)
    .meta({ description: `${description}; null clears it` });

const addressPhoneUpdate = (description: string) =>
  phoneNumberSchema(description)
    .transform((value) => value ?? null)
    .meta({ description: `${description}, read as E.164 as on an address; null clears it` });

const contactUpdate = (description: string) =>
  withoutControlCharacters(z.string({ error: 'a contact person is a name' }).trim(), true)
    .max(100, { message: 'must be at most 100 characters' })
    .nullish()
    .transform((value) => (value ? value : null))
    .meta({ description: `${description}; null clears it` });

/** PATCH /v1/shipper/shipment/{shipmentId} (extension): what the carrier assigns after booking. */
export const shipmentUpdateSchema = onFirstUse(() => {
  const carrierUpdateFields = carrierRequestShape(addressSchema);
  return z
    .strictObject({
      carrier: carrierUpdateFields.carrier,
      proNumber: carrierUpdateFields.proNumber,
      trailerNumber: carrierUpdateFields.trailerNumber,
      sealNumbers: carrierUpdateFields.sealNumbers,
      // What an eBOL needs and a booking may lack (issue 20, item 17): until the pickup day.
      // As the published Address writes them (E.164), for confirm (issue 40).
      shipperPhone: addressPhoneUpdate('The shipper contact phone'),
      consigneePhone: addressPhoneUpdate('The consignee contact phone'),
      // What the published confirm needs and an order created INITIALIZED may lack (issue 40): until the pickup day.
      shipperContact: contactUpdate('The contact person at the pickup (pickupAddress.contactPerson)'),
      consigneeContact: contactUpdate('The contact person at the delivery (deliveryAddress.contactPerson)'),
      description: withoutControlCharacters(z.string({ error: 'description must be a string' }).trim(), true)
        .min(1, { message: 'a description cannot be empty' })
        .max(256, { message: 'must be at most 256 characters' })
        .optional()
        .meta({ description: "The order's published description (what it is, for the carrier)" }),
      emergencyContactPhone: updatePhone('The emergency response phone (49 CFR 172.604); required while a line is hazardous'),
      lineDescriptions: z
        .array(
          z.strictObject({
            line: z.number({ error: 'line is a line number' }).int({ message: 'line is a whole number' }).min(1, { message: 'lines are numbered from 1' }),
            description: withoutControlCharacters(z.string({ error: 'description must be a string' }).trim(), true)
              .min(1, { message: 'a description cannot be empty' })
              .max(256, { message: 'must be at most 256 characters' }),
          }),
          { error: 'lineDescriptions is a list of { line, description }' },
        )
        .min(1, { message: 'give at least one line' })
        .max(FREIGHT_LIMITS.maxHandlingUnits, { message: `at most ${FREIGHT_LIMITS.maxHandlingUnits} lines` })
        .optional()
        .meta({ description: 'New descriptions of order components by line number (1 = the first), e.g. what an eBOL needs; the freight itself stays as booked' }),
      ...Object.fromEntries(FIXED_AFTER_BOOKING.map((field) => [field, fixedField(field)])),
    })
    .meta({
      description:
        'The carrier, PRO, trailer and seal numbers, as the carrier assigns them after booking; and, until the pickup day, the contact and emergency phones and line descriptions. null clears one. The freight cannot change here.',
    });
});

/** POST /v1/shipper/shipment/{shipmentId}/tender (extension): a file for the carrier's systems. */
export const tenderRequestSchema = onFirstUse(() =>
  z.strictObject({
    format: z
      .enum(['ebol', 'x12-204', 'x12-211'], { error: 'format is ebol, x12-204 or x12-211' })
      .meta({ description: 'NMFTA eBOL 2.1 request, X12 004010 204 load tender or 211 bill of lading' }),
  }),
);

export const tenderDocumentSchema = onFirstUse(() =>
  z.object({
    format: z.enum(['ebol', 'x12-204', 'x12-211']),
    contentType: z.string().meta({ description: 'application/json (eBOL) or application/edi-x12' }),
    fileName: z.string().meta({ example: '06141410000001231.204.edi' }),
    content: z.string().meta({ description: 'The file, as text' }),
    controlNumber: z.number().int().nullable().meta({ description: 'The X12 interchange and group control number (never repeated); null for the eBOL' }),
  }),
);
export type TenderDocument = z.infer<typeof tenderDocumentSchema>;

/** POST /v1/shipper/shipment/{shipmentId}/cancel (extension). */
export const cancelRequestSchema = onFirstUse(() =>
  z
    .strictObject({
      reason: withoutControlCharacters(z.string({ error: 'reason must be a string' }).trim())
        .max(500, { message: 'must be at most 500 characters' })
        // Only spaces, or null: no reason given.
        .transform((reason) => reason || undefined)
        .nullish()
        .meta({ description: 'Why the shipment is cancelled; printed across its voided BOL' }),
    })
    // No body, or JSON null: a cancellation without a reason.
    .nullish()
    .transform((value) => ({ reason: value?.reason ?? undefined })),
);

// ---------------------------------------------------------------------------------------------
// Transit tables (extension: POST /v1/shipper/transit). Read-only: nothing is quoted or stored.

export { MAX_TRANSIT_DESTINATIONS, MAX_TRANSIT_LANE_DAYS, MAX_TRANSIT_PICKUP_DAYS };

// Not toLocaleString: at module load its first call would load ICU's number data for every command.
const count = formatLimit;

export const transitRequestSchema = onFirstUse(() =>
  z
    .strictObject({
      origin: placeInputSchema,
      destinations: z
        .array(placeInputSchema, { error: (issue) => (issue.input === undefined ? 'destinations is required' : 'destinations must be a list') })
        .min(1, { message: 'at least one destination is required' })
        .max(MAX_TRANSIT_DESTINATIONS, { message: `at most ${MAX_TRANSIT_DESTINATIONS} destinations per request` }),
      pickupDate: isoDateSchema.optional().meta({ description: 'First pickup date to show; default the next business day. A closed day is shown with the reason' }),
      pickupDays: z
        .number({ error: 'pickupDays must be a number' })
        .int({ message: 'pickupDays must be a whole number' })
        .min(1, { message: 'pickupDays must be at least 1' })
        .max(MAX_TRANSIT_PICKUP_DAYS, { message: `pickupDays must be at most ${MAX_TRANSIT_PICKUP_DAYS}` })
        .default(1)
        .meta({ description: 'How many business (pickup) days to show per lane, from pickupDate on' }),
    })
    // The answer grows with lanes x days: bounded as a whole, not only each factor.
    .superRefine((request, ctx) => {
      const laneDays = request.destinations.length * request.pickupDays;
      if (laneDays > MAX_TRANSIT_LANE_DAYS) {
        ctx.addIssue({
          code: 'custom',
          path: ['pickupDays'],
          message: `${count(request.destinations.length)} destinations x ${count(request.pickupDays)} pickup days is ${count(laneDays)} lane-days; at most ${count(MAX_TRANSIT_LANE_DAYS)} per request (fewer destinations or days per request)`,
        });
      }
    })
    .meta({
      description: `At most ${count(MAX_TRANSIT_LANE_DAYS)} lane-days (destinations x pickupDays) per request`,
      'x-max-lane-days': MAX_TRANSIT_LANE_DAYS,
    }),
);
export type TransitRequestInput = z.input<typeof transitRequestSchema>;

export const closedDaySchema = onFirstUse(() => z.object({ date: isoDateSchema, reason: z.string() }));

export const transitRowSchema = onFirstUse(() =>
  z.object({
    pickupDate: isoDateSchema,
    pickupAvailable: z.boolean().meta({ description: 'false on weekends and carrier holidays' }),
    closedReason: z.string().nullable().meta({ description: 'Why there is no pickup that day, e.g. "Thanksgiving (carrier holiday)"' }),
    transitDays: z.number().int().nullable().meta({ description: 'null without coverage or without a pickup' }),
    deliveryDate: isoDateSchema.nullable().meta({ description: 'Delivery day, local to the destination' }),
    estimatedDeliveryDate: instantSchema.nullable().meta({ description: 'Delivery day at the destination cut-off, as a UTC instant' }),
    skippedDays: z.array(closedDaySchema).meta({ description: 'Closed days between pickup and delivery that transit days do not count' }),
  }),
);
export type TransitRow = z.infer<typeof transitRowSchema>;

export const transitLaneSchema = onFirstUse(() =>
  z.object({
    origin: placeSchema,
    destination: placeSchema.extend({ timeZone: z.string().meta({ description: 'IANA time zone of the destination' }) }),
    miles: z.number().int(),
    covered: z.boolean().meta({ description: 'false when the tariff does not serve the lane (no transit days, no ETA)' }),
    rows: z.array(transitRowSchema),
  }),
);
export type TransitLane = z.infer<typeof transitLaneSchema>;

export const transitTableSchema = onFirstUse(() => z.object({ lanes: z.array(transitLaneSchema) }));
export type TransitTable = z.infer<typeof transitTableSchema>;

// ---------------------------------------------------------------------------------------------
// Lists and errors

export const pageSchema = <T extends z.ZodType>(item: T) =>
  z.object({
    items: z.array(item),
    nextCursor: z.string().nullable().meta({ description: 'Pass as `cursor` for the next (older) page; null at the end' }),
  });
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

export const bolTemplateInfoSchema = z.object({
  name: z.string().meta({ description: 'Template name, passed as `template`', example: 'standard' }),
  description: z.string(),
});

export const violationSchema = z.object({
  field: z.string().meta({ example: 'orderComponents[0].pieceCount' }),
  reason: z.string(),
});
export type Violation = z.infer<typeof violationSchema>;

export const problemDetailSchema = z.object({
  type: z.string(),
  title: z.string(),
  status: z.number().int(),
  detail: z.string().optional(),
  instance: z.string().optional(),
  /** A stable reason for scripts, where the published API gives one (e.g. `no_coverage`). */
  reason: z.string().optional(),
  violations: z.array(violationSchema).optional(),
});
export type ProblemDetail = z.infer<typeof problemDetailSchema>;

// ---------------------------------------------------------------------------------------------
// Batches (extensions: POST /v1/shipper/shipment-batch books, POST /v1/shipper/shipment-preview
// prices without booking). Each item is judged on its own, by exactly the rules of a single
// POST /v1/shipper/shipment: an invalid item is that item's ProblemDetail, not a 400 of the batch.

export { MAX_BATCH_COMPONENTS, MAX_BATCH_ITEMS };

/** The Idempotency-Key header's rule (IETF draft), for keys that travel in a body. */
const idempotencyKeySchema = z.string().regex(IDEMPOTENCY_KEY_PATTERN, { message: 'idempotencyKey must be 1-255 printable ASCII characters without spaces' });

/** Validated per item (with the rules of ShipmentRequest), so that one bad item does not refuse the batch. */
const batchShipmentRequest = z.unknown().meta({ $ref: '#/components/schemas/ShipmentRequest' });

const batchItems = <T extends z.ZodType>(item: T) =>
  z
    .array(item, { error: (issue) => (issue.input === undefined ? 'items is required' : 'items must be a list') })
    .min(1, { message: 'at least one item is required' })
    .max(MAX_BATCH_ITEMS, { message: `at most ${MAX_BATCH_ITEMS} items per request` });

/** Order components in a batch's items, counted before the items are judged one by one. */
function componentsOf(items: ReadonlyArray<{ request: unknown }>): number {
  let total = 0;
  for (const { request } of items) {
    const components = (request as { orderComponents?: unknown } | null)?.orderComponents;
    if (Array.isArray(components)) total += components.length;
  }
  return total;
}

/** The work of a batch is its components: bounded over all items (each item alone allows 1,000). */
const boundedComponents = (envelope: { items: ReadonlyArray<{ request: unknown }> }, ctx: z.RefinementCtx) => {
  const total = componentsOf(envelope.items);
  if (total > MAX_BATCH_COMPONENTS) {
    ctx.addIssue({
      code: 'custom',
      path: ['items'],
      message: `the items hold ${count(total)} order components; at most ${count(MAX_BATCH_COMPONENTS)} per request (send fewer items per request)`,
    });
  }
};
const batchLimits = {
  description: `At most ${MAX_BATCH_ITEMS} items and ${count(MAX_BATCH_COMPONENTS)} order components (over all items) per request`,
  'x-max-order-components': MAX_BATCH_COMPONENTS,
};

export const shipmentBatchRequestSchema = onFirstUse(() =>
  z
    .strictObject({
      items: batchItems(
        z.strictObject({
          request: batchShipmentRequest,
          idempotencyKey: idempotencyKeySchema.optional().meta({ description: 'As the Idempotency-Key header of POST /v1/shipper/shipment: the same key and request book once' }),
          confirm: z.boolean().optional().meta({
            description:
              'true: confirm the order in the same unit of work as its creation when it passes the published confirm checks (CONFIRMED); one that fails them is still created, INITIALIZED, with a NOT_CONFIRMED warning naming what it lacks. Default false: INITIALIZED, as POST /v1/shipper/shipment',
          }),
        }),
      ),
    })
    .superRefine(boundedComponents)
    .meta(batchLimits),
);

export const shipmentPreviewRequestSchema = onFirstUse(() =>
  z
    .strictObject({
      items: batchItems(
        z.strictObject({
          request: batchShipmentRequest,
          idempotencyKey: idempotencyKeySchema
            .optional()
            .meta({ description: 'The key the item would be booked with: an item already booked under it comes back `replayed`, priced as it was booked' }),
          confirm: z.boolean().optional().meta({
            description:
              'true: the item would be booked with `confirm: true`; one that would fail the published confirm checks (and so be created INITIALIZED) gets the NOT_CONFIRMED warning its booking would, naming what it lacks',
          }),
        }),
      ),
      freightCheck: z.boolean().optional().meta({
        description: "false: the items are validated and priced without the freight check's warnings (shipper import's check pass, whose booking gives them); default true",
      }),
    })
    .superRefine(boundedComponents)
    .meta(batchLimits),
);

const batchOutcomeSchema = <T extends z.ZodType>(data: T) =>
  z.union([
    z.object({
      ok: z.literal(true),
      data,
      warnings: z.array(warningSchema).meta({ description: 'What this item earned: coded warnings (docs/warnings.md)' }),
      replayed: z.boolean().meta({ description: 'true when the idempotencyKey matched an earlier booking, which came back' }),
    }),
    z.object({ ok: z.literal(false), problem: problemDetailSchema.meta({ description: 'What a single request would have answered (4xx)' }) }),
  ]);

export const shipmentBatchResultSchema = onFirstUse(() =>
  z.object({
    items: z.array(batchOutcomeSchema(shipmentSchema)).meta({ description: 'One outcome per item, in the order of the request' }),
  }),
);
export const shipmentPreviewResultSchema = onFirstUse(() =>
  z.object({
    items: z.array(batchOutcomeSchema(quoteSchema)).meta({ description: 'The quote each item would be booked on; nothing is stored' }),
  }),
);
