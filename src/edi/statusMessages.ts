/**
 * A carrier's status message as read from its file, before it is matched to a shipment: the keys
 * that find the shipment, the carrier's codes, the local date and time with the zone it is
 * written in, and the place. X12 214 (x12-214.ts) and ITV JSON (itv.ts) both read into this. Pure.
 */
import type { EventPlace } from '../domain/tracking.js';
import type { LocalStamp, WrittenZone } from '../domain/eventTime.js';

export interface ShipmentKeys {
  proNumber: string | null;
  scac: string | null;
  bolNumber: string | null;
  /** The shipper's references the message carries (PO, customer reference, shipment id). */
  references: string[];
  destinationPostalCode: string | null;
}

export interface StatusMessage {
  source: 'x12-214' | 'itv-json';
  /** "tracking.edi line 14 (ISA 000000123, ST 0001)": where the message is, for people and the event record. */
  reference: string;
  file: string;
  line: number;
  keys: ShipmentKeys;
  statusCode: string | null;
  reasonCode: string | null;
  /** The carrier's local date and time of the event. */
  stamp: LocalStamp;
  /** The zone the stamp is written in; `local`: the zone of the event's place. */
  zone: WrittenZone | 'local';
  place: EventPlace | null;
  /** The carrier's delivery ETA the message gives. */
  eta: { stamp: LocalStamp; zone: WrittenZone | 'local' } | null;
  note: string | null;
  /** What the reader noticed and read all the same (an unknown time code read as local time). */
  notices: string[];
}

export interface MessageIssue {
  file: string;
  line: number;
  message: string;
}

export interface StatusMessagesRead {
  messages: StatusMessage[];
  /** Messages that cannot be read (the rest of the file still is). */
  issues: MessageIssue[];
}
