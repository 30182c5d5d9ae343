/**
 * The short text of a tool's answer, beside its structured content: a line an assistant can repeat
 * (the structured content holds everything). Told by the answer's shape, so that a new operation
 * gets a sensible line without a case of its own.
 */
import { formatCents } from '../domain/money.js';

type JsonObject = Record<string, unknown>;

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
const price = (cents: unknown) => (typeof cents === 'number' ? formatCents(cents) : undefined);

function oneLine(item: JsonObject): string {
  const carrier = item.carrier && typeof item.carrier === 'object' ? text((item.carrier as JsonObject).name) : undefined;
  if (text(item.trackingStatus)) {
    const eta = text(item.carrierEstimatedDeliveryDate) ?? text(item.estimatedDeliveryDate);
    const delivered = text(item.deliveredAt);
    return [
      `${text(item.orderNumber) ?? text(item.shipmentId)}: ${String(item.trackingStatus)}`,
      delivered ? `delivered ${delivered}` : eta ? `ETA ${eta}` : undefined,
      carrier ? `carrier ${carrier}` : undefined,
      Array.isArray(item.events) ? `${item.events.length} event(s)` : undefined,
    ]
      .filter(Boolean)
      .join(', ');
  }
  if (text(item.orderNumber)) {
    return [
      `${String(item.orderNumber)} (${text(item.id) ?? ''}) ${text(item.status) ?? ''}`.replace(/\s+/g, ' ').trim(),
      price(item.quotedPriceInCents),
      text(item.pickupDate) ? `pickup ${String(item.pickupDate)}` : undefined,
      text(item.bolNumber) ? `BOL ${String(item.bolNumber)}` : undefined,
      text(item.refNumber) ? `ref ${String(item.refNumber)}` : undefined,
    ]
      .filter(Boolean)
      .join(', ');
  }
  if (item.quotedPriceInCents !== undefined) {
    return [
      `quote ${text(item.id) ?? ''} ${price(item.quotedPriceInCents) ?? ''}`.replace(/\s+/g, ' ').trim(),
      carrier ? `carrier ${carrier}` : undefined,
      typeof item.transitDays === 'number' ? `${item.transitDays} transit day(s)` : undefined,
      text(item.estimatedDeliveryDate) ? `ETA ${String(item.estimatedDeliveryDate)}` : undefined,
      text(item.quoteExpirationTime) ? `expires ${String(item.quoteExpirationTime)}` : undefined,
    ]
      .filter(Boolean)
      .join(', ');
  }
  if (text(item.invoiceNumber)) return `invoice ${String(item.invoiceNumber)}${price(item.totalInCents) ? `, ${price(item.totalInCents)}` : ''}`;
  if (item.ok === false && item.problem && typeof item.problem === 'object') return `refused: ${text((item.problem as JsonObject).detail) ?? 'see problem'}`;
  if (item.ok === true) {
    const inner = (item.quote ?? item.data ?? item.shipment) as JsonObject | undefined;
    return inner && typeof inner === 'object' ? oneLine(inner) : 'ok';
  }
  const keys = Object.keys(item).filter((key) => key !== 'warnings');
  return keys.length > 0 ? `answered ${keys.slice(0, 6).join(', ')}${keys.length > 6 ? ', ...' : ''}` : 'done';
}

const LISTED = 10;

export function summaryOf(_operation: string, data: JsonObject): string {
  if (Array.isArray(data.items)) {
    const items = data.items as JsonObject[];
    const lines = [`${items.length} item(s)${text(data.nextCursor) ? ` (more: cursor ${String(data.nextCursor)})` : ''}`];
    lines.push(...items.slice(0, LISTED).map((item) => `- ${oneLine(item)}`));
    if (items.length > LISTED) lines.push(`- ... ${items.length - LISTED} more in the structured content`);
    if (Array.isArray(data.uncovered) && data.uncovered.length > 0) lines.push(`${data.uncovered.length} carrier(s) gave no price`);
    return lines.join('\n');
  }
  return oneLine(data);
}
