/**
 * A warning: what shipper says about a request or a document that does not stop it, with a
 * stable `code` a script can act on (SPEC section 5), the sentence a person reads, and where it
 * applies the line it concerns, the numbers and the price at stake. One schema for the engine, the
 * API's answers (`warnings[]`, the X-Shipper-Warning header), the remote client and the CLI.
 * Pure: zod only.
 */
import { z } from 'zod';

/**
 * Every code shipper issues. The freight check's (issue 21) first; then the others, each named by
 * what it warns about. A code is never renamed or reused: scripts match on it.
 */
export const WARNING_CODES = [
  // The freight check (docs/warnings.md): what a carrier's dock inspection would rebill.
  'DENSITY_MARGIN',
  'NON_STACKABLE_HEIGHT',
  'WIDE_FREIGHT',
  'CUBIC_CAPACITY',
  'LINEAR_FEET',
  'OVERLENGTH',
  'NO_DESCRIPTION',
  // Requests.
  'DEPRECATED_PALLET_DIMENSIONS',
  'BEYOND_LTL',
  'ADDRESS_CITY_MISMATCH',
  'REFERENCE_TAKEN',
  'DOCUMENTATION_PREFIX',
  'PRO_OUT_OF_BLOCK',
  'PICKUP_AFTER_CUTOFF',
  // Reading: damaged records, CSV cells read with a repair, files that changed.
  'RECORD_UNREADABLE',
  'ZIP_PADDED',
  'FILE_CHANGED',
  'REJECTS_FILE_KEPT',
  'MORE_WARNINGS',
  // Carrier files: what a format has no place for.
  'TENDER_FIELD_DROPPED',
  'TENDER_CODE_SUBSTITUTED',
  'TENDER_TEXT_CUT',
  // The CLI's own: settings and files.
  'BASE_URL_ROOT',
  'API_KEY_OVER_HTTP',
  'SERVE_WITHOUT_API_KEY',
  'LOCATION_NOT_SAVED',
  'FILE_EXISTS',
  // A server's warning without a code (a foreign server, or one older than the codes).
  'SERVER_WARNING',
] as const;

export type WarningCode = (typeof WARNING_CODES)[number];

/** The freight check's codes, by level: `risk` is a rule the freight meets as declared (a rebill if inspected); `warn` a class that a measure or a missing description may change. */
export const FREIGHT_CHECK_LEVELS = {
  DENSITY_MARGIN: 'warn',
  NO_DESCRIPTION: 'warn',
  NON_STACKABLE_HEIGHT: 'risk',
  WIDE_FREIGHT: 'risk',
  CUBIC_CAPACITY: 'risk',
  LINEAR_FEET: 'risk',
  OVERLENGTH: 'risk',
} as const satisfies Partial<Record<WarningCode, 'warn' | 'risk'>>;

export type FreightCheckCode = keyof typeof FREIGHT_CHECK_LEVELS;
export type WarningLevel = 'info' | 'warn' | 'risk';

export function isFreightCheckCode(code: string): code is FreightCheckCode {
  return Object.hasOwn(FREIGHT_CHECK_LEVELS, code);
}

/** `risk` and `warn` for the freight check's codes; every other warning is `info`. */
export function levelOf(code: string): WarningLevel {
  return isFreightCheckCode(code) ? FREIGHT_CHECK_LEVELS[code] : 'info';
}

const cents = z.number().int();

export const priceAtStakeSchema = z
  .object({
    quotedPriceInCents: cents.meta({ description: 'The price as quoted' }),
    atRiskPriceInCents: cents.meta({ description: 'The same freight re-rated as an inspector would bill it (the risk class or rule)' }),
    differenceInCents: cents.meta({ description: 'atRiskPriceInCents - quotedPriceInCents' }),
    basis: z.string().meta({ description: 'What was re-rated: "class 85", "96 in high", "750 cu ft at 6 pcf"...' }),
  })
  .meta({ description: 'The price at stake: the quote re-rated at the risk class or rule, beside the quoted price' });

export type PriceAtStake = z.output<typeof priceAtStakeSchema>;

export const warningSchema = z
  .object({
    // Open on the wire: a newer server's code must not make an older client refuse the answer.
    code: z
      .string()
      .regex(/^[A-Z][A-Z0-9_]{0,63}$/)
      .meta({ description: `A stable code: ${WARNING_CODES.join(', ')} (docs/warnings.md)` }),
    message: z.string().meta({ description: 'The warning in words' }),
    field: z.string().optional().meta({ description: 'The field it concerns, written as violations are: orderComponents[0].dimensions.height' }),
    line: z.number().int().min(0).optional().meta({ description: 'The index of the order component it concerns' }),
    detail: z
      .record(z.string(), z.union([z.number(), z.string(), z.boolean(), z.null()]))
      .optional()
      .meta({ description: 'The numbers the rule compared (density, threshold, inches, feet...)' }),
    priceAtStake: priceAtStakeSchema.optional(),
  })
  .meta({ description: 'A warning with a stable code; also sent as an X-Shipper-Warning header `CODE message`' });

export type Warning = z.output<typeof warningSchema>;

/** A warning of this code; `extra` adds where it applies and its numbers. */
export function warning(code: WarningCode, message: string, extra: Omit<Warning, 'code' | 'message'> = {}): Warning {
  return { code, message, ...extra };
}

/** One line for a person: `[CODE] message`. */
export function describeWarning(item: Pick<Warning, 'code' | 'message'>): string {
  return `[${item.code}] ${item.message}`;
}

/** Warnings with the same code and message once (a batch repeats the numbering warning). */
export function distinctWarnings(items: readonly Warning[]): Warning[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const key = `${item.code}\n${item.message}\n${item.line ?? ''}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
