/**
 * A warning: what shipper says about a request or a document that does not stop it, with a
 * stable `code` a script can act on (SPEC section 5), the sentence a person reads, and where it
 * applies the line it concerns, the numbers and the price at stake. One schema for the engine, the
 * API's answers (`warnings[]`, the X-Shipper-Warning header), the remote client and the CLI.
 * Pure and free of zod (the CLI's start-up imports it); the schema is warningSchema.ts.
 */

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
  // The order's life: an order created with confirmation asked for that the published confirm checks refuse (left INITIALIZED).
  'NOT_CONFIRMED',
  // The published limits (publishedLimits.ts): a pallet beyond the standard size, dimensions not given.
  'OVERSIZE_PALLET',
  'DIMENSIONS_ASSUMED',
  // Reading: damaged records, CSV cells read with a repair, files that changed.
  'RECORD_UNREADABLE',
  'ZIP_PADDED',
  'FILE_CHANGED',
  // The store: what it cut or cannot write.
  'STORE_JOURNAL_CUT',
  'STORE_READ_ONLY',
  'REJECTS_FILE_KEPT',
  'MORE_WARNINGS',
  // Carrier files: what a format has no place for.
  'TENDER_FIELD_DROPPED',
  'TENDER_CODE_SUBSTITUTED',
  'TENDER_TEXT_CUT',
  'EBOL_INCOMPLETE',
  // The CLI's own: settings and files.
  'BASE_URL_ROOT',
  'API_KEY_OVER_HTTP',
  'SERVE_WITHOUT_API_KEY',
  'LOCATION_NOT_SAVED',
  'FILE_EXISTS',
  // Carrier agreements: fuel prices, accessorials, lanes.
  'FUEL_PRICE_STALE',
  'FUEL_PRICE_MISSING',
  'FUEL_TABLE_NOT_IN_FORCE',
  'AGREEMENT_NO_ACCESSORIAL',
  'LANE_NOT_COVERED',
  // Tracking: carriers' status messages.
  'TRACKING_ZONE_GUESSED',
  'TRACKING_UNKNOWN_STATUS_CODE',
  'TRACKING_MESSAGE_NOTICE',
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

/** The price at stake: the quote re-rated at the risk class or rule, beside the quoted price (warningSchema.ts). */
export interface PriceAtStake {
  quotedPriceInCents: number;
  atRiskPriceInCents: number;
  differenceInCents: number;
  basis: string;
}

/** A coded warning (its zod schema, for the API's answers: warningSchema.ts). */
export interface Warning {
  code: string;
  message: string;
  field?: string | undefined;
  line?: number | undefined;
  detail?: Record<string, number | string | boolean | null> | undefined;
  priceAtStake?: PriceAtStake | undefined;
}

/** A warning of this code; `extra` adds where it applies and its numbers. */
export function warning(code: WarningCode, message: string, extra: Omit<Warning, 'code' | 'message'> = {}): Warning {
  // In the schema's order, so that a warning reads the same locally and parsed from a server's answer.
  return {
    code,
    message,
    ...(extra.field !== undefined ? { field: extra.field } : {}),
    ...(extra.line !== undefined ? { line: extra.line } : {}),
    ...(extra.detail !== undefined ? { detail: extra.detail } : {}),
    ...(extra.priceAtStake !== undefined ? { priceAtStake: extra.priceAtStake } : {}),
  };
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
