/**
 * Rate shopping (POST /v1/shipper/rates, `shipper quote --carrier ...`): the quote request, priced
 * by every carrier agreement that covers the lane (or those named), answered cheapest first, with
 * one line per carrier that gives no price. Pure: zod only.
 */
import { z } from 'zod';
import { SCAC_PATTERN } from './carrier.js';
import { quoteCarrierSchema } from './pricedBy.js';
import { quoteRequestSchema, quoteSchema } from './schemas.js';

export const ratesRequestSchema = quoteRequestSchema
  .extend({
    carrierScacs: z
      .array(
        z
          .string({ error: 'a SCAC is a string' })
          .trim()
          .transform((value) => value.toUpperCase())
          .pipe(z.string().regex(SCAC_PATTERN, { message: 'a SCAC is 2 to 4 letters, e.g. ODFL' })),
      )
      .max(50)
      .optional()
      .meta({ description: 'Only these carriers (default: every agreement loaded)' }),
  })
  .meta({ description: 'A quote request; carrierScac or carrierScacs narrow the carriers asked' });

export const uncoveredCarrierSchema = z.object({
  carrier: quoteCarrierSchema,
  agreement: z.string().nullable(),
  reason: z.string().meta({ example: 'no base rates for lane 606 -> 100' }),
});

export const ratesSchema = z.object({
  items: z.array(quoteSchema).meta({ description: 'One stored quote per carrier that prices the shipment, cheapest first; each books with POST /v1/shipper/shipment {quoteId}' }),
  uncovered: z.array(uncoveredCarrierSchema).meta({ description: 'The carriers asked that give no price, and why' }),
  cheapestQuoteId: z.string().nullable(),
  fastestQuoteId: z.string().nullable().meta({ description: 'The fewest transit days (the cheaper on a tie); null without transit days' }),
});
export type Rates = z.infer<typeof ratesSchema>;

/** Cheapest first; on equal prices the faster, then by SCAC. */
export function sortCheapestFirst<Q extends { quotedPriceInCents: number; transitDays: number | null; carrier?: { scac: string } | undefined }>(quotes: Q[]): Q[] {
  const days = (quote: Q) => quote.transitDays ?? Number.MAX_SAFE_INTEGER;
  return [...quotes].sort((a, b) => a.quotedPriceInCents - b.quotedPriceInCents || days(a) - days(b) || (a.carrier?.scac ?? '').localeCompare(b.carrier?.scac ?? ''));
}

export function fastestOf<Q extends { id: string; transitDays: number | null }>(sorted: Q[]): string | null {
  let best: Q | undefined;
  for (const quote of sorted) if (quote.transitDays !== null && (best === undefined || quote.transitDays < best.transitDays!)) best = quote;
  return best?.id ?? null;
}
