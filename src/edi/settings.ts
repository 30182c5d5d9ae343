/**
 * What the carrier files need beyond the shipment: the X12 trading-partner settings (ids,
 * qualifiers, separators) and the eBOL settings (test flag, requestor role, account numbers).
 * One zod schema each: validation, types and documentation. Pure.
 */
import { z } from 'zod';

/** Printable, not a letter, digit or space, and not "." (the decimal point of weights and classes). */
const SEPARATOR = /^[!-\-/:-@[-`{-~]$/;

/** A single printable, non-alphanumeric character that is not a space. */
const separatorChar = (what: string) =>
  z
    .string({ error: `the ${what} separator is one character` })
    .regex(SEPARATOR, { message: `the ${what} separator is one printable character other than a letter, a digit, a space or "."` });

export const x12SeparatorsSchema = z
  .object({
    element: separatorChar('element').default('*'),
    segment: separatorChar('segment').default('~'),
    subElement: separatorChar('sub-element').default('>'),
  })
  .refine((value) => new Set([value.element, value.segment, value.subElement]).size === 3, {
    message: 'the element, segment and sub-element separators must be three different characters',
  })
  .meta({ description: 'X12 separators: element (default *), segment terminator (default ~), sub-element (default >)' });
export type X12Separators = z.output<typeof x12SeparatorsSchema>;

const ID_CHARACTERS = /^[A-Za-z0-9 .\-_/&@#]+$/;

/** Ids travel in the fixed-width ISA and in GS: printable ASCII without the usual separators. */
const interchangeId = (what: string, max: number, min = 1) =>
  z
    .string({ error: `${what} is required` })
    .trim()
    .min(min, { message: `${what} needs at least ${min} characters`, abort: true })
    .max(max, { message: `${what} has at most ${max} characters` })
    .regex(ID_CHARACTERS, { message: `${what} is letters, digits, spaces and . - _ / & @ #` });

const idQualifier = (what: string) =>
  z
    .string({ error: `${what} is required` })
    .regex(/^[A-Z0-9]{2}$/, { message: `${what} is a 2-character ISA qualifier, e.g. ZZ (mutually defined), 02 (SCAC), 01 (DUNS), 12 (phone)` });

export const x12InterchangeSettingsSchema = z
  .object({
    senderQualifier: idQualifier('senderQualifier').default('ZZ'),
    senderId: interchangeId('senderId', 15),
    receiverQualifier: idQualifier('receiverQualifier').default('ZZ'),
    receiverId: interchangeId('receiverId', 15),
    applicationSenderCode: interchangeId('applicationSenderCode', 15, 2).optional().meta({ description: 'GS02; default the sender id' }),
    applicationReceiverCode: interchangeId('applicationReceiverCode', 15, 2).optional().meta({ description: 'GS03; default the receiver id' }),
    // Test until the user says production: a carrier treats a P interchange as real freight.
    usage: z
      .enum(['production', 'test'], { error: 'usage is production or test' })
      .default('test')
      .meta({ description: 'ISA15: T (test, the default) or P (production: the carrier acts on it)' }),
    acknowledgmentRequested: z.boolean().default(false).meta({ description: 'ISA14: ask for a TA1 acknowledgment' }),
    separators: x12SeparatorsSchema.default({ element: '*', segment: '~', subElement: '>' }),
    lineBreak: z
      .enum(['none', 'lf', 'crlf'], { error: 'lineBreak is none, lf or crlf' })
      .default('lf')
      .meta({ description: 'Written after each segment terminator, for people reading the file' }),
  })
  .superRefine((value, ctx) => {
    // GS02/GS03 default to the ISA ids and need 2 characters.
    if (!value.applicationSenderCode && value.senderId.length === 1)
      ctx.addIssue({ code: 'custom', path: ['applicationSenderCode'], message: 'GS02 needs 2 characters: set applicationSenderCode or a longer senderId' });
    if (!value.applicationReceiverCode && value.receiverId.length === 1)
      ctx.addIssue({ code: 'custom', path: ['applicationReceiverCode'], message: 'GS03 needs 2 characters: set applicationReceiverCode or a longer receiverId' });
    for (const key of ['senderId', 'receiverId', 'applicationSenderCode', 'applicationReceiverCode'] as const) {
      const id = value[key];
      // An id with other characters already has its own issue.
      if (!id || !ID_CHARACTERS.test(id)) continue;
      for (const [role, separator] of Object.entries(value.separators).filter(([, character]) => SEPARATOR.test(character))) {
        if (id.includes(separator)) ctx.addIssue({ code: 'custom', path: [key], message: `contains ${JSON.stringify(separator)}, the ${role} separator` });
      }
    }
  })
  .meta({ description: 'X12 interchange settings for one trading partner (the carrier)' });
export type X12InterchangeSettingsInput = z.input<typeof x12InterchangeSettingsSchema>;

/**
 * The `x12` setting as `config set x12` takes it: the interchange settings without the receiver,
 * which comes from the carrier (its profile's x12, else qualifier 02 and its SCAC) at tender time.
 * Checked with the same schema the tender uses, so that what is set is what a tender accepts.
 */
export const x12SettingSchema = z.record(z.string(), z.unknown()).superRefine((value, ctx) => {
  const checked = x12InterchangeSettingsSchema.safeParse({ receiverQualifier: '02', receiverId: 'SCAC', ...value });
  if (!checked.success) for (const issue of checked.error.issues) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
});
export type X12InterchangeSettings = z.output<typeof x12InterchangeSettingsSchema>;

const account = z.string().trim().min(1).max(64).optional();

export const EBOL_REQUESTOR_ROLES = ['Shipper', 'Consignee', 'Third Party'] as const;

export const ebolSettingsSchema = z
  .object({
    isTest: z.boolean().default(false).meta({ description: 'bol.isTest: the carrier treats the request as a test' }),
    requestorRole: z.enum(EBOL_REQUESTOR_ROLES, { error: 'requestorRole is Shipper, Consignee or Third Party' }).default('Shipper'),
    accounts: z
      .object({ shipper: account, consignee: account, billTo: account })
      .default({})
      .meta({ description: 'Account numbers with the carrier, written as origin/destination/billTo.account' }),
    emergencyContactName: z.string().trim().min(1).max(100).optional().meta({ description: "Name beside the shipment's emergency phone; default the shipper's name" }),
  })
  .meta({ description: 'eBOL 2.1 request settings' });
export type EbolSettings = z.output<typeof ebolSettingsSchema>;

/** The `ebol` setting as `config set ebol` takes it: checked with the schema the tender uses, stored as given. */
export const ebolSettingSchema = z.record(z.string(), z.unknown()).superRefine((value, ctx) => {
  const checked = ebolSettingsSchema.safeParse(value);
  if (!checked.success) for (const issue of checked.error.issues) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
});
