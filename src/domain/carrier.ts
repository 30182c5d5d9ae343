/**
 * What a carrier needs on a shipment beyond the freight (the VICS bill of lading's carrier, PRO,
 * freight charge terms, declared value, COD, FOB and master BOL boxes, the pickup window) and, per
 * order component, hazardous materials described as 49 CFR 172.202 requires. All optional and
 * additive: a request without them books as before. Pure: zod only.
 *
 * The address schema is passed in (carrierShipmentShape) rather than imported, so that
 * schemas.ts can use these fields without an import cycle.
 */
import { z } from 'zod';
import { withoutControlCharacters } from './controlCharacters.js';

/** One line of text: control characters refused (controlCharacters.ts). */
const oneLine = (schema: z.ZodString) => withoutControlCharacters(schema);

const text = (field: string, max: number) =>
  oneLine(z.string({ error: `${field} must be a string` }).trim())
    .min(1, { message: `${field} is required` })
    .max(max, { message: `must be at most ${max} characters` });

/** Standard Carrier Alpha Code: 2 to 4 capital letters (NMFTA). */
export const SCAC_PATTERN = /^[A-Z]{2,4}$/;

export const carrierSchema = z
  .strictObject({
    name: text('carrier name', 100),
    scac: z
      .string({ error: 'scac must be a string' })
      .trim()
      .transform((value) => value.toUpperCase())
      .pipe(z.string().regex(SCAC_PATTERN, { message: 'a SCAC is 2 to 4 letters, e.g. ODFL' })),
  })
  .meta({ description: 'The carrier: name and Standard Carrier Alpha Code (SCAC)' });

/** PRO numbers as carriers print them: digits and letters, optionally with dashes, at most 20. */
export const proNumberSchema = z
  .string({ error: 'proNumber must be a string' })
  .trim()
  .regex(/^[A-Za-z0-9][A-Za-z0-9-]{0,19}$/, { message: 'a PRO number is 1 to 20 letters, digits and dashes' })
  .transform((value) => value.toUpperCase())
  .meta({ description: "The carrier's progressive (PRO) number, given or assigned from a configured PRO range" });

export const FREIGHT_CHARGE_TERMS = ['PREPAID', 'COLLECT', 'THIRD_PARTY'] as const;

const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;
export const localTimeSchema = z
  .string({ error: 'a time is written HH:MM' })
  .trim()
  .regex(HH_MM, { message: 'a time is written HH:MM (24-hour, local to the origin)' })
  .meta({ example: '08:00' });

export const pickupWindowSchema = z
  .strictObject({
    readyTime: localTimeSchema.meta({ description: 'When the freight is ready, local time at the origin' }),
    closeTime: localTimeSchema.meta({ description: 'When the dock closes, local time at the origin' }),
  })
  .superRefine((window, ctx) => {
    if (HH_MM.test(window.readyTime) && HH_MM.test(window.closeTime) && window.closeTime <= window.readyTime) {
      // Equal times are an empty window, not "before": say which one it is.
      const when = window.closeTime === window.readyTime ? 'at the time' : 'before';
      ctx.addIssue({
        code: 'custom',
        path: ['closeTime'],
        message: `the dock closes (${window.closeTime}) ${when} the freight is ready (${window.readyTime}): the window is empty`,
      });
    }
  })
  .meta({ description: 'Pickup window at the origin, local time' });

/** Money a carrier collects or insures: a whole number of cents, at most $10,000,000. */
const MAX_CARRIER_AMOUNT_IN_CENTS = 1_000_000_000;
const amountInCents = (field: string) =>
  z
    .number({ error: `${field} must be a number of cents` })
    .int({ message: `${field} is a whole number of cents` })
    .min(1, { message: `${field} must be greater than 0` })
    .max(MAX_CARRIER_AMOUNT_IN_CENTS, { message: `${field} must be at most ${MAX_CARRIER_AMOUNT_IN_CENTS} cents ($10,000,000)` });

export const declaredValueSchema = z
  .strictObject({
    amountInCents: amountInCents('amountInCents'),
    per: z.enum(['SHIPMENT', 'POUND'], { error: 'per is SHIPMENT or POUND' }).default('SHIPMENT'),
  })
  .meta({ description: 'The agreed or declared value of the property (VICS: "not exceeding ... per ...")' });

export const codSchema = z
  .strictObject({
    amountInCents: amountInCents('amountInCents'),
    feeTerms: z.enum(['PREPAID', 'COLLECT'], { error: 'feeTerms is PREPAID or COLLECT' }).default('COLLECT'),
    customerCheckAcceptable: z.boolean({ error: 'customerCheckAcceptable is true or false' }).default(false),
  })
  .meta({ description: 'Collect on delivery: the amount, who pays the COD fee, whether a customer check is acceptable' });

/** Hazard classes and divisions of 49 CFR 173.2 (with the compatibility group letter of class 1). */
const HAZARD_CLASS = /^(1\.[1-6][A-HJKLNS]?|2\.[1-3]|3|4\.[1-3]|5\.[12]|6\.[12]|7|8|9)$/;

export const hazmatSchema = z
  .strictObject({
    unNumber: z
      .string({ error: 'unNumber must be a string' })
      .trim()
      .transform((value) => value.toUpperCase().replace(/\s+/g, ''))
      .pipe(z.string().regex(/^(UN|NA)\d{4}$/, { message: 'an identification number is UN or NA and 4 digits, e.g. UN1203' })),
    properShippingName: text('properShippingName', 200),
    hazardClass: z.string({ error: 'hazardClass must be a string' }).trim().regex(HAZARD_CLASS, { message: 'a hazard class or division of 49 CFR 173.2, e.g. 3, 2.1, 8' }),
    packingGroup: z
      .enum(['I', 'II', 'III'], { error: 'packingGroup is I, II or III (none for classes 2 and 7)' })
      .nullish()
      .transform((value) => value ?? null),
  })
  .meta({ description: 'Hazardous material: the basic description of 49 CFR 172.202 (identification number, proper shipping name, hazard class, packing group)' });
export type Hazmat = z.output<typeof hazmatSchema>;
/** As stored: lenient about new fields and about the text (a record written before control characters were refused). */
export const storedHazmatSchema = z
  .object({
    unNumber: z.string(),
    properShippingName: z.string(),
    hazardClass: z.string(),
    packingGroup: z
      .enum(['I', 'II', 'III'])
      .nullish()
      .transform((value) => value ?? null),
  })
  .loose();

export const contactPhoneSchema = oneLine(z.string({ error: 'must be a string' }).trim())
  .min(1, { message: 'is required' })
  .max(32, { message: 'must be at most 32 characters' });

const sealSchema = oneLine(z.string({ error: 'a seal number is a string' }).trim())
  .min(1, { message: 'a seal number cannot be empty' })
  .max(32, { message: 'must be at most 32 characters' });

/**
 * The fields a shipment request may carry for the carrier. `address` is the API's address schema
 * (for a third-party bill-to).
 */
export function carrierRequestShape<A extends z.ZodType>(address: A) {
  // Absent or null is null: a default, not a transform (a pipe of zod's for each field of every request).
  return {
    carrier: carrierSchema.nullable().default(null),
    proNumber: proNumberSchema.nullable().default(null),
    freightChargeTerms: z
      .strictObject({
        terms: z.enum(FREIGHT_CHARGE_TERMS, { error: 'terms is PREPAID, COLLECT or THIRD_PARTY' }),
        billTo: address.nullable().default(null),
      })
      .superRefine((value, ctx) => {
        if (value.terms === 'THIRD_PARTY' && !value.billTo) {
          ctx.addIssue({ code: 'custom', path: ['billTo'], message: 'third-party freight terms need the bill-to address' });
        }
        if (value.terms !== 'THIRD_PARTY' && value.billTo) {
          ctx.addIssue({
            code: 'custom',
            path: ['billTo'],
            message: `a bill-to address goes with THIRD_PARTY terms; ${value.terms} bills the ${value.terms === 'PREPAID' ? 'shipper' : 'consignee'}`,
          });
        }
      })
      .nullish()
      .transform((value) => value ?? { terms: 'PREPAID' as const, billTo: null })
      .meta({ description: 'Who pays the freight: PREPAID (the shipper, the default), COLLECT (the consignee) or THIRD_PARTY (billTo)' }),
    declaredValue: declaredValueSchema.nullable().default(null),
    cod: codSchema.nullable().default(null),
    pickupWindow: pickupWindowSchema.nullable().default(null),
    fob: z
      .enum(['ORIGIN', 'DESTINATION'], { error: 'fob is ORIGIN or DESTINATION' })
      .nullable()
      .default(null)
      .meta({ description: 'The FOB box of the VICS BOL: ticked at the ship-from (ORIGIN) or the ship-to (DESTINATION)' }),
    masterBol: z
      .boolean({ error: 'masterBol is true or false' })
      .nullish()
      .transform((value) => value ?? false)
      .meta({ description: 'This is a master bill of lading with attached underlying bills' }),
    emergencyContactPhone: contactPhoneSchema
      .nullable()
      .default(null)
      .meta({ description: 'Emergency response telephone number (49 CFR 172.604); required when a line is hazardous' }),
    trailerNumber: oneLine(z.string({ error: 'trailerNumber must be a string' }).trim())
      .max(32, { message: 'must be at most 32 characters' })
      .nullish()
      .transform((value) => value || null),
    sealNumbers: z
      .array(sealSchema, { error: 'sealNumbers must be a list' })
      .max(10, { message: 'at most 10 seal numbers' })
      .nullish()
      .transform((value) => value ?? []),
  };
}

/** The same fields as stored and answered: absent in records written before they existed, lenient about new ones. */
export function carrierRecordShape<A extends z.ZodType>(address: A) {
  return {
    carrier: z.object({ name: z.string(), scac: z.string() }).loose().nullable().default(null),
    proNumber: z.string().nullable().default(null),
    freightChargeTerms: z.object({ terms: z.enum(FREIGHT_CHARGE_TERMS), billTo: address.nullable() }).default({ terms: 'PREPAID', billTo: null } as never),
    declaredValue: declaredValueSchema.loose().nullable().default(null),
    cod: codSchema.loose().nullable().default(null),
    pickupWindow: z.object({ readyTime: z.string(), closeTime: z.string() }).nullable().default(null),
    fob: z.enum(['ORIGIN', 'DESTINATION']).nullable().default(null),
    masterBol: z.boolean().default(false),
    emergencyContactPhone: z.string().nullable().default(null),
    trailerNumber: z.string().nullable().default(null),
    sealNumbers: z.array(z.string()).default([]),
  };
}

/** A hazardous line needs an emergency response number on the shipment (49 CFR 172.604). */
export function emergencyPhoneViolation(request: { emergencyContactPhone: string | null; orderComponents: ReadonlyArray<{ hazmat?: Hazmat | null }> }) {
  const first = request.orderComponents.findIndex((component) => component.hazmat);
  if (first === -1 || request.emergencyContactPhone) return undefined;
  return { field: 'emergencyContactPhone', reason: `orderComponents[${first}] is hazardous material: an emergency response telephone number is required` };
}
