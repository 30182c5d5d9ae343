/**
 * What `PUT /v1/shipper/shipment/{orderNumber}/confirm` checks before an order moves from
 * INITIALIZED to CONFIRMED: exactly the list of the published description (issue 40;
 * reference/oway-shipper-api.openapi.json), every violation at once, each named by the path of
 * its field (`pickupAddress.phoneNumber`, `orderComponents[0].palletCount`). A failed check leaves
 * the order INITIALIZED. The state itself (only INITIALIZED confirms) is orderStatus.ts's.
 * Pure and free of zod: the input is the minimal shape with the published names.
 *
 * The published list, and where each is checked:
 * - prerequisite "the order must have an associated quote": `quoteId`;
 * - on both addresses name, address1, zipCode, contactPerson, phoneNumber (E.164), openTime and
 *   closeTime (HH:mm, defaulted to 10:00 and 16:00, so only a time given can fail: storeHours.ts);
 * - `description` not empty;
 * - 1 to 51 pallets in all, at least 1 pallet per component, 1 to 2,500 lb per pallet, the pallet
 *   size within the limits (publishedLimits.ts: 95x95x96 in, 62x62x94 in with a liftgate);
 * - "totalPoundsWeight - Must be between 1 and 2,500 lbs per pallet": holds whenever every
 *   component's pallets weigh 1 to 2,500 lb each (the order's average per pallet lies between its
 *   components'), so it is checked there, once, on the component that breaks it;
 * - "Sum of component palletCount must equal order totalPalletCount" and the same of the weights:
 *   shipper derives the totals from the components, so they hold by construction; there is no
 *   total in the input to disagree with them.
 *
 * *Decision:* the times' order (closing after opening) is not in the published list, so confirm
 * does not check it; storeHours.ts does where an address is read. Nor is a pallet beyond the
 * standard 60x52x94 in: that is a warning (OVERSIZE_PALLET), charged, not refused; checkComponent
 * returns it beside the violations for the caller that reports warnings.
 */
import { isZipCode } from './zipCode.js';
import { checkComponent, orderPalletViolations, PUBLISHED_LIMITS, type DimensionsInput, type FieldViolation, type PublishedLimits } from './publishedLimits.js';
import { storeTimeViolations } from './storeHours.js';
import { orderDescriptionOf } from './orderDescription.js';
import { warning, type Warning } from './warnings.js';

/** The published pattern of Address.phoneNumber: E.164, a + and up to 15 digits. */
export const E164_PATTERN = /^\+[1-9]\d{1,14}$/;

type Text = string | null | undefined;

export interface ConfirmAddress {
  name?: Text;
  address1?: Text;
  zipCode?: Text;
  contactPerson?: Text;
  phoneNumber?: Text;
  openTime?: Text;
  closeTime?: Text;
  liftgateRequired?: boolean | null | undefined;
}

export interface ConfirmComponent {
  palletCount: number;
  /** The component's total weight (all its pallets), in pounds. */
  poundsWeight: number;
  dimensions?: DimensionsInput | null | undefined;
}

export interface ConfirmOrder {
  pickupAddress?: ConfirmAddress | null | undefined;
  deliveryAddress?: ConfirmAddress | null | undefined;
  description?: Text;
  quoteId?: Text;
  orderComponents?: readonly ConfirmComponent[] | null | undefined;
}

const ADDRESS_TEXTS = [
  ['name', 'the location or company name'],
  ['address1', 'the street address'],
  ['zipCode', 'the 5-digit ZIP code'],
  ['contactPerson', 'the name of the contact at this location'],
  ['phoneNumber', "the contact's phone number"],
] as const;

const blank = (text: Text): boolean => text === undefined || text === null || text.trim() === '';

function addressViolations(address: ConfirmAddress | null | undefined, path: 'pickupAddress' | 'deliveryAddress', limits: PublishedLimits): FieldViolation[] {
  if (!address) return [{ field: path, reason: `${path} is required` }];
  const violations: FieldViolation[] = [];
  for (const [key, what] of ADDRESS_TEXTS) {
    const value = address[key];
    if (blank(value)) violations.push({ field: `${path}.${key}`, reason: `${key} is required (${what})` });
    else if (key === 'zipCode' && !isZipCode(value!.trim())) violations.push({ field: `${path}.${key}`, reason: `zipCode ${JSON.stringify(value)} is not a 5-digit ZIP code` });
    else if (key === 'phoneNumber' && !E164_PATTERN.test(value!)) {
      violations.push({ field: `${path}.${key}`, reason: `phoneNumber ${JSON.stringify(value)} is not in E.164 format (a + and the country code, e.g. +13125550100)` });
    }
  }
  // Only the format is the published rule; the order of the two is storeHours' own (see above).
  violations.push(...storeTimeViolations(address, path, limits));
  return violations;
}

/** Every published confirm check the order fails; none: it may be confirmed. */
export function confirmViolations(order: ConfirmOrder, limits: PublishedLimits = PUBLISHED_LIMITS): FieldViolation[] {
  const violations: FieldViolation[] = [];
  if (blank(order.quoteId)) violations.push({ field: 'quoteId', reason: 'the order has no quote: confirming needs the quote it was created from (quoteId)' });
  violations.push(...addressViolations(order.pickupAddress, 'pickupAddress', limits), ...addressViolations(order.deliveryAddress, 'deliveryAddress', limits));
  if (blank(order.description)) violations.push({ field: 'description', reason: 'description must not be empty (what the shipment holds)' });
  const components = order.orderComponents ?? [];
  violations.push(...orderPalletViolations(components, limits));
  const liftgateRequired = order.pickupAddress?.liftgateRequired === true || order.deliveryAddress?.liftgateRequired === true;
  components.forEach((component, index) => violations.push(...checkComponent(component, { index, liftgateRequired, limits }).violations));
  return violations;
}

/**
 * What a creation that asks for confirmation (the batch extension's `confirm`, `shipper import`)
 * leaves: CONFIRMED when the order passes every check, else INITIALIZED with the violations, which
 * the caller reports as a NOT_CONFIRMED warning (notConfirmedMessage). Only an INITIALIZED order
 * is confirmed (a replayed one is answered as it is).
 */
export function confirmedOnCreation<T extends ConfirmOrder & { orderStatus: string }>(
  order: T,
  limits: PublishedLimits = PUBLISHED_LIMITS,
): { order: T; violations: FieldViolation[] } {
  if (order.orderStatus !== 'INITIALIZED') return { order, violations: [] };
  const violations = confirmViolations(order, limits);
  return violations.length > 0 ? { order, violations } : { order: { ...order, orderStatus: 'CONFIRMED' }, violations };
}

/**
 * The NOT_CONFIRMED warning of an order the confirm checks found lacking: created INITIALIZED
 * (`orderNumber`), or, for a dry run (a preview with `confirm`), one that would be. Its message
 * names every field lacking (with the reason when it is not simply missing) and what to do; its
 * detail lists the fields.
 */
export function notConfirmedWarning(violations: readonly FieldViolation[], orderNumber?: string): Warning {
  const lacking = violations
    .map((violation) => (/ is required \(|must not be empty/.test(violation.reason) ? violation.field : `${violation.field} (${violation.reason})`))
    .join(', ');
  const message =
    orderNumber === undefined
      ? `would be created INITIALIZED, not confirmed: it lacks ${lacking}; give them in the file (contact and phone columns, a description) to have it confirmed as it is booked`
      : `${orderNumber} was created INITIALIZED, not confirmed: it lacks ${lacking}; add them (shipper shipment update ${orderNumber} --shipper-contact, --shipper-phone, --consignee-contact, --consignee-phone, --order-description), then shipper shipment confirm ${orderNumber}`;
  return warning('NOT_CONFIRMED', message, { detail: { fields: violations.map((violation) => violation.field).join(',') } });
}

/**
 * The confirm checks an order would fail, read from its request before it is created (`shipper
 * ship` before it books, a dry run against a service without a preview): the description defaults
 * as the engine's (the lines' own words), `quoteId` is the quote it is or will be booked on.
 */
export function requestConfirmViolations(request: ConfirmOrder & { orderComponents: ReadonlyArray<{ description?: unknown }> }, quoteId: string): FieldViolation[] {
  return confirmViolations({ ...request, description: request.description ?? orderDescriptionOf(request.orderComponents), quoteId });
}
