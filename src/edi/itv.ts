/**
 * Carriers' status notifications in the NMFTA In-Transit Visibility shape (Digital LTL Council,
 * In-Transit Visibility API 1.1: Notification_DeliveryUpdate and Notification_DeliveryInformation),
 * validated by zod. Pure.
 *
 * A file holds one notification, a list of them, or `{ "notifications": [...] }`. The ITV
 * notification says where the freight is (shipmentMilestoneStatus: Picked-up, In Transit,
 * Interline, Out for Delivery, Delivered) but not when that happened, nor which carrier sends it:
 * shipper reads two additions, `eventDateTime` (the local date and time of the event, or an
 * instant with its offset) and `carrierSCAC`. The time is written in `TimeZoneOfShipment` (a UTC
 * offset, "-5"), else an offset inside eventDateTime, else the zone of the terminal's postal code.
 * A DeliveryInformation "Missed delivery" is a delivery exception, with its delay reason code
 * (310-1 ...); the other informational messages are kept on the timeline.
 */
import { z } from 'zod';
import { parseUtcOffset, type LocalStamp, type WrittenZone } from '../domain/eventTime.js';
import { ITV_MILESTONES } from '../domain/tracking.js';
import { violationsFromZod } from '../domain/validation.js';
import type { MessageIssue, StatusMessage, StatusMessagesRead } from './statusMessages.js';

const text = z.string().trim();
const optionalText = text.nullish().transform((value) => value || null);

const addressSchema = z
  .looseObject({
    City: optionalText,
    State: optionalText,
    PostalCode: optionalText,
    Country: optionalText,
    city: optionalText,
    state: optionalText,
    postalCode: optionalText,
    country: optionalText,
  })
  .nullish();

const LOCAL_DATE_TIME = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2})?)(?:\.\d+)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/;

export const itvNotificationSchema = z
  .looseObject({
    proNumber: text.min(1, { message: 'proNumber is required' }),
    carrierSCAC: optionalText,
    shipmentReferenceNumbers: z.looseObject({ bolNumber: optionalText, poNumber: optionalText, ShipmentID: optionalText, MasterBOL: optionalText }).nullish(),
    shipmentMilestoneStatus: z.enum(ITV_MILESTONES, { error: `shipmentMilestoneStatus is one of ${ITV_MILESTONES.join(', ')}` }).nullish(),
    deliveryInformation_messages: optionalText,
    eventDateTime: text.regex(LOCAL_DATE_TIME, { message: 'eventDateTime is the local date and time of the event, e.g. 2026-11-24T09:30:00 (an offset may follow)' }),
    TimeZoneOfShipment: optionalText.refine((value) => value === null || parseUtcOffset(value) !== undefined, {
      message: 'TimeZoneOfShipment is a UTC offset such as -5 or -05:00',
    }),
    UpdatedETA: optionalText.refine((value) => value === null || LOCAL_DATE_TIME.test(value), { message: 'UpdatedETA is a date, with or without a time' }),
    DelayReason: optionalText,
    delayedReasonCode: optionalText,
    notificationMessage: optionalText,
    terminalAddress: addressSchema,
    ConsigneeAddress: addressSchema,
  })
  .superRefine((notification, ctx) => {
    if (!notification.shipmentMilestoneStatus && !notification.deliveryInformation_messages) {
      ctx.addIssue({
        code: 'custom',
        path: ['shipmentMilestoneStatus'],
        message: 'a notification has a shipmentMilestoneStatus (DeliveryUpdate) or deliveryInformation_messages (DeliveryInformation)',
      });
    }
  });
type ItvNotification = z.output<typeof itvNotificationSchema>;

function stampOf(value: string): { stamp: LocalStamp; offsetMinutes: number | null } {
  const [, date, time, offset] = LOCAL_DATE_TIME.exec(value)!;
  return { stamp: { date: date!, time: time ?? null }, offsetMinutes: offset ? (offset === 'Z' ? 0 : parseUtcOffset(offset)!) : null };
}

export function readItvStatusMessages(content: string, file: string): StatusMessagesRead {
  let json: unknown;
  try {
    json = JSON.parse(content.startsWith('\uFEFF') ? content.slice(1) : content);
  } catch (error) {
    return { messages: [], issues: [{ file, line: 1, message: `not JSON: ${(error as Error).message}` }] };
  }
  const list = Array.isArray(json)
    ? json
    : typeof json === 'object' && json !== null && Array.isArray((json as { notifications?: unknown }).notifications)
      ? (json as { notifications: unknown[] }).notifications
      : [json];
  const messages: StatusMessage[] = [];
  const issues: MessageIssue[] = [];
  list.forEach((item, index) => {
    const parsed = itvNotificationSchema.safeParse(item);
    if (!parsed.success) {
      for (const violation of violationsFromZod(parsed.error, itvNotificationSchema)) {
        issues.push({ file, line: index + 1, message: `notification ${index + 1}${violation.field ? `, ${violation.field}` : ''}: ${violation.reason}` });
      }
      return;
    }
    messages.push(messageOf(parsed.data, file, index));
  });
  if (list.length === 0) issues.push({ file, line: 1, message: 'the file holds no notification' });
  return { messages, issues };
}

function messageOf(notification: ItvNotification, file: string, index: number): StatusMessage {
  const references = notification.shipmentReferenceNumbers;
  const bol = references?.bolNumber ?? null;
  const event = stampOf(notification.eventDateTime);
  const shipmentOffset = notification.TimeZoneOfShipment ? parseUtcOffset(notification.TimeZoneOfShipment)! : null;
  const offset = shipmentOffset ?? event.offsetMinutes;
  const zone: WrittenZone | 'local' = offset === null ? 'local' : { offsetMinutes: offset };
  const eta = notification.UpdatedETA ? stampOf(notification.UpdatedETA) : null;
  const terminal = notification.terminalAddress;
  const consignee = notification.ConsigneeAddress;
  const statusCode = notification.shipmentMilestoneStatus ?? notification.deliveryInformation_messages!;
  return {
    source: 'itv-json',
    reference: `${file} notification ${index + 1}`,
    file,
    line: index + 1,
    keys: {
      proNumber: notification.proNumber,
      scac: notification.carrierSCAC?.toUpperCase() ?? null,
      bolNumber: bol,
      references: [references?.poNumber, references?.ShipmentID, bol && !/^\d{17}$/.test(bol) ? bol : null].filter((value): value is string => Boolean(value)),
      destinationPostalCode: consignee?.postalCode ?? consignee?.PostalCode ?? null,
    },
    statusCode,
    reasonCode: notification.DelayReason ?? notification.delayedReasonCode ?? null,
    stamp: event.stamp,
    zone,
    place: terminal
      ? {
          city: terminal.City ?? terminal.city ?? null,
          state: (terminal.State ?? terminal.state)?.toUpperCase() ?? null,
          zipCode: terminal.PostalCode ?? terminal.postalCode ?? null,
          countryCode: terminal.Country ?? terminal.country ?? null,
        }
      : null,
    eta: eta ? { stamp: eta.stamp, zone: eta.offsetMinutes !== null ? { offsetMinutes: eta.offsetMinutes } : zone } : null,
    note: notification.notificationMessage,
    notices: [],
  };
}
