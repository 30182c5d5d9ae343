/**
 * Look-ups the store's files do not give by name: the shipments booked on a quote, and the
 * shipments that carry a reference number. One small file per quote (`quote-bookings/<quoteId>`)
 * and per reference (`references/<hash of the reference>`), written in the booking's reservation
 * round, before the shipments themselves: an entry whose shipment file is missing (a crash in
 * between) counts for nothing, because whether a shipment is active is read from the shipment.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { shipmentSchema, type Shipment } from '../../domain/schemas.js';
import type { JsonStore } from '../../store/jsonStore.js';

const entrySchema = z.object({ id: z.string(), orderNumber: z.string() });
const quoteBookingsSchema = z.object({ quoteId: z.string(), shipments: z.array(entrySchema) });
const referenceSchema = z.object({ refNumber: z.string(), shipments: z.array(entrySchema) });
type Entry = z.infer<typeof entrySchema>;

/** Shipment files read at once while looking for the active holders of a reference. */
const READ_AHEAD = 8;

export interface IndexedShipment {
  id: string;
  orderNumber: string;
  status: Shipment['status'];
  quoteId: string;
}

/** References match whatever their case and spacing: "po-4471 " and "PO-4471" are one order. */
export function normalisedReference(refNumber: string): string {
  return refNumber.trim().replace(/\s+/g, ' ').toUpperCase();
}

const referenceId = (refNumber: string) => createHash('sha256').update(normalisedReference(refNumber)).digest('hex');

export class ShipmentIndexes {
  constructor(private readonly store: JsonStore) {}

  /** The shipments booked on a quote, as they are now (a cancelled one says so). */
  async bookingsOfQuote(quoteId: string): Promise<IndexedShipment[]> {
    const index = await this.store.get('quote-bookings', quoteId, quoteBookingsSchema);
    return this.current(index?.shipments ?? []);
  }

  /** The ids of the shipments that carry this reference (for list filters). */
  async idsWithReference(refNumber: string): Promise<string[]> {
    const index = await this.store.get('references', referenceId(refNumber), referenceSchema);
    return (index?.shipments ?? []).map((entry) => entry.id);
  }

  /**
   * The active (BOOKED) shipments that carry this reference, newest first, `most` at the most: a
   * reference used for everything ("STOCK") has thousands, and a booking needs only a few to
   * name, so it reads a few shipment files, not all of them.
   */
  async activeWithReference(refNumber: string, most: number): Promise<IndexedShipment[]> {
    const index = await this.store.get('references', referenceId(refNumber), referenceSchema);
    const entries = [...(index?.shipments ?? [])].reverse();
    const active: IndexedShipment[] = [];
    for (let start = 0; start < entries.length && active.length < most; start += READ_AHEAD) {
      const shipments = await this.current(entries.slice(start, start + READ_AHEAD));
      active.push(...shipments.filter((shipment) => shipment.status === 'BOOKED'));
    }
    return active.slice(0, most);
  }

  /** Adds bookings to the indexes: one write per quote and per reference touched. Runs under the shipments lock. */
  async record(bookings: ReadonlyArray<{ id: string; orderNumber: string; quoteId: string | null; refNumber: string | null }>): Promise<void> {
    const quotes = new Map<string, Entry[]>();
    const references = new Map<string, { refNumber: string; entries: Entry[] }>();
    for (const booking of bookings) {
      const entry = { id: booking.id, orderNumber: booking.orderNumber };
      if (booking.quoteId) quotes.set(booking.quoteId, [...(quotes.get(booking.quoteId) ?? []), entry]);
      if (booking.refNumber) {
        const id = referenceId(booking.refNumber);
        const known = references.get(id) ?? { refNumber: normalisedReference(booking.refNumber), entries: [] };
        known.entries.push(entry);
        references.set(id, known);
      }
    }
    const quoteRecords = await Promise.all(
      [...quotes].map(async ([quoteId, entries]) => {
        const stored = await this.store.get('quote-bookings', quoteId, quoteBookingsSchema);
        return { id: quoteId, record: { quoteId, shipments: merge(stored?.shipments ?? [], entries) } };
      }),
    );
    const referenceRecords = await Promise.all(
      [...references].map(async ([id, { refNumber, entries }]) => {
        const stored = await this.store.get('references', id, referenceSchema);
        return { id, record: { refNumber, shipments: merge(stored?.shipments ?? [], entries) } };
      }),
    );
    await Promise.all([this.store.putMany('quote-bookings', quoteRecords), this.store.putMany('references', referenceRecords)]);
  }

  private async current(entries: Entry[]): Promise<IndexedShipment[]> {
    const shipments = await Promise.all(entries.map((entry) => this.store.get('shipments', entry.id, shipmentSchema).catch(() => undefined)));
    return shipments
      .filter((shipment): shipment is Shipment => shipment !== undefined)
      .map((shipment) => ({ id: shipment.id, orderNumber: shipment.orderNumber, status: shipment.status, quoteId: shipment.quoteId }));
  }
}

/** Entries once each: a booking resumed after a crash may record itself again. */
function merge(stored: Entry[], added: Entry[]): Entry[] {
  const known = new Set(stored.map((entry) => entry.id));
  return [...stored, ...added.filter((entry) => !known.has(entry.id))];
}
