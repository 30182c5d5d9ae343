/**
 * The instant of a carrier's message: its local date and time read in the zone it is written in,
 * which for local time (X12 LT, or no time code) is the zone of the event's place. The place's
 * zone, in order: its ZIP; the shipper's or the consignee's ZIP when the place is their city; the
 * city in the geodata; else the shipment's end the milestone is nearest to, with a warning.
 */
import { instantOf, zoneOfFixedOffset, type LocalStamp, type WrittenZone } from '../domain/eventTime.js';
import type { Shipment } from '../domain/schemas.js';
import { milestoneOfCode } from '../domain/tracking.js';
import type { StatusMessage } from '../edi/statusMessages.js';
import { cityKey } from '../geo/cityZones.js';
import { zoneGuessedWarning } from './warnings.js';
import type { Warning } from '../domain/warnings.js';

export interface PlaceZones {
  zipZone(zipCode: string): string | undefined;
  cityZone(city: string, state: string): string | undefined;
}

const DELIVERY_SIDE = new Set(['OUT_FOR_DELIVERY', 'AT_DELIVERY', 'DELIVERED', 'EXCEPTION', 'ESTIMATE']);

export interface ResolvedTime {
  occurredAt: Date;
  /** The zone of the place, for local times on the timeline. */
  timeZone: string | null;
  estimatedDeliveryAt: Date | null;
  warnings: Warning[];
}

function placeZone(message: StatusMessage, shipment: Shipment, zones: PlaceZones): { zone: string | null; guessed: boolean } {
  const place = message.place;
  if (place?.zipCode) {
    const zone = zones.zipZone(place.zipCode);
    if (zone) return { zone, guessed: false };
  }
  if (place?.city && place.state) {
    const key = cityKey(place.city, place.state);
    for (const party of [shipment.pickupAddress, shipment.deliveryAddress]) {
      if (cityKey(party.city, party.state) === key) {
        const zone = zones.zipZone(party.zipCode);
        if (zone) return { zone, guessed: false };
      }
    }
    const zone = zones.cityZone(place.city, place.state);
    if (zone) return { zone, guessed: false };
  }
  const milestone = message.statusCode ? milestoneOfCode(message.source, message.statusCode) : null;
  const end = milestone && DELIVERY_SIDE.has(milestone) ? shipment.deliveryAddress : shipment.pickupAddress;
  return { zone: zones.zipZone(end.zipCode) ?? null, guessed: true };
}

function read(stamp: LocalStamp, written: WrittenZone | 'local', local: string | null): Date {
  if (written !== 'local') return instantOf(stamp, written);
  return instantOf(stamp, local ? { timeZone: local } : { offsetMinutes: 0 });
}

export function resolveTime(message: StatusMessage, shipment: Shipment, zones: PlaceZones): ResolvedTime {
  const warnings: Warning[] = [];
  const { zone, guessed } = placeZone(message, shipment, zones);
  const usesLocal = message.zone === 'local' || message.eta?.zone === 'local';
  if (guessed && usesLocal) {
    const place = message.place ? [message.place.city, message.place.state].filter(Boolean).join(', ') || 'the place' : 'an event without a place';
    warnings.push(zoneGuessedWarning(message.reference, place, zone ?? 'UTC'));
  }
  const written = message.zone;
  const display = zone ?? (written !== 'local' && 'offsetMinutes' in written ? zoneOfFixedOffset(written.offsetMinutes) : written !== 'local' ? written.timeZone : null);
  return {
    occurredAt: read(message.stamp, written, zone),
    timeZone: display,
    estimatedDeliveryAt: message.eta ? read(message.eta.stamp, message.eta.zone, zones.zipZone(shipment.deliveryAddress.zipCode) ?? zone) : null,
    warnings,
  };
}
