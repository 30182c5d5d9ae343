/** The quote request that the flags of `shipper quote` (and the wizard's presets) describe. */
import type { QuoteRequestInput } from '../domain/schemas.js';
import { UsageError } from '../api/problems.js';
import { COMPONENT_SPEC_EXAMPLE, parseComponentSpec } from './componentSpec.js';

export interface QuoteOptions {
  from?: string;
  to?: string;
  pickupDate?: string;
  component: string[];
  accessorial: string[];
  interactive?: boolean;
  /** `--carrier all` or SCACs (repeatable): rate shopping with the carrier agreements. */
  carrier?: string[];
}

/**
 * The flags' values pass through as written (numbers when they look like numbers), so that the
 * API's schema, not this parser, judges them and names the field: hence the cast.
 */
export function quoteRequestFromOptions(options: QuoteOptions, stops?: { from: Record<string, unknown>; to: Record<string, unknown> }): QuoteRequestInput {
  const missing = [!options.from && '--from ZIP', !options.to && '--to ZIP', options.component.length === 0 && '--component SPEC'].filter(Boolean);
  if (missing.length > 0) {
    throw new UsageError(`missing ${missing.join(', ')}`, `example: shipper quote --from 60601 --to 10001 --component ${COMPONENT_SPEC_EXAMPLE}`);
  }
  return {
    pickupAddress: stops?.from ?? { zipCode: options.from, countryCode: 'US' },
    deliveryAddress: stops?.to ?? { zipCode: options.to, countryCode: 'US' },
    ...(options.pickupDate ? { requiredPickupDate: options.pickupDate } : {}),
    accessorials: normaliseAccessorials(options.accessorial),
    orderComponents: options.component.map(parseComponentSpec),
  } as QuoteRequestInput;
}

/** `--from 60601` (or ZIP+4, or anything without letters or `=`): a ZIP code, not a saved location or an address. */
export function isZipOnly(value: string): boolean {
  return !/[A-Za-z=]/.test(value);
}

export function normaliseAccessorials(values: string[]): string[] {
  return values
    .flatMap((value) => value.split(','))
    .map((code) => code.trim().toUpperCase().replace(/-/g, '_'))
    .filter(Boolean);
}
