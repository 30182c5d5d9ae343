/**
 * The answers of the published service (Oway's Shipper API) as its document describes them: only
 * the published fields, every one optional (its schemas require none in an answer) and any other
 * field ignored. Remote mode reads an answer with shipper's own schema first; when the server is
 * not a shipper serve and leaves out shipper's extension fields, with these, and the command shows
 * what came and names what did not.
 */
import { z } from 'zod';

const text = z.string();
const cents = z.number().int();
const instant = z.string();
const orderStatus = z.string();

const publishedQuote = z.looseObject({
  id: text,
  quotedPriceInCents: cents.optional(),
  quoteExpirationTime: instant.optional(),
  transitDays: z.number().int().nullable().optional(),
  estimatedDeliveryDate: instant.nullable().optional(),
});

const publishedShipment = z.looseObject({
  id: text.optional(),
  companyId: text.optional(),
  userId: text.optional(),
  orderNumber: text,
  orderStatus: orderStatus.optional(),
  totalPriceInCents: cents.optional(),
  createdAt: instant.optional(),
  updatedAt: instant.optional(),
});

const publishedTracking = z.looseObject({
  id: text.optional(),
  orderNumber: text,
  orderStatus: orderStatus.optional(),
  actualPickupDate: instant.optional(),
  actualDeliveryDate: instant.optional(),
  estimatedPickupDate: instant.optional(),
  estimatedDeliveryDate: instant.optional(),
});

/** By the component id of the operation's answer (operations table): the published shape of that answer. */
export const PUBLISHED_ANSWERS: Readonly<Record<string, z.ZodType<Record<string, unknown>>>> = {
  Quote: publishedQuote,
  Shipment: publishedShipment,
  Tracking: publishedTracking,
};

/** The fields of shipper's own answer that `answer` does not carry: the top-level fields its schema's issues found missing. */
export function unansweredFields(issues: readonly z.core.$ZodIssue[], answer: Record<string, unknown>): string[] {
  const missing = issues.filter((issue) => issue.path.length >= 1 && answer[String(issue.path[0])] === undefined).map((issue) => String(issue.path[0]));
  return [...new Set(missing)];
}
