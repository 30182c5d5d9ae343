/**
 * `shipper track import`: carriers' status messages (X12 214, ITV JSON) read, matched to
 * shipments and recorded as events through the ShipperApi (POST /v1/shipper/shipment-events, up
 * to 500 shipments a request, one unit of work each), so the same import works on the local
 * engine and against a server. Each message is matched by PRO and SCAC, else by BOL number, else
 * by reference and destination ZIP; the server drops what it already has (a partner sending a
 * message again), refuses events on cancelled shipments, and sets each shipment's tracking status.
 */
import type { ShipperApi } from '../api/types.js';
import type { Shipment } from '../domain/schemas.js';
import { AT7_STATUS_CODES, MAX_EVENT_LEAD_MS } from '../domain/tracking.js';
import { leadingZip5 } from '../domain/zipCode.js';
import { MAX_BATCH_EVENTS, MAX_BATCH_SHIPMENTS, MAX_EVENTS_PER_REQUEST, type ShipmentEventsRequestInput } from '../domain/trackingRequests.js';
import { readItvStatusMessages } from '../edi/itv.js';
import type { MessageIssue, StatusMessage, StatusMessagesRead } from '../edi/statusMessages.js';
import { readX12StatusMessages } from '../edi/x12-214.js';
import { resolveTime, type PlaceZones } from './resolveTime.js';
import { messageNoticeWarning, unknownStatusCodeWarning } from './warnings.js';
import type { Warning } from '../domain/warnings.js';

export interface MessageFile {
  name: string;
  content: string;
}

export interface SetAside {
  reference: string;
  /** The keys the message gave, for people: "PRO 1234567 (ODFL), BOL 0614..." */
  keys: string;
  reason: string;
}

export interface TrackImportReport {
  files: number;
  messages: number;
  /** Shipments that got at least one new event. */
  shipments: number;
  added: number;
  duplicates: number;
  unmatched: SetAside[];
  refused: SetAside[];
  /** Messages that could not be read. */
  issues: MessageIssue[];
  warnings: Warning[];
}

/** An ITV file is JSON (an object or a list); anything else is read as X12. */
export function readMessageFile(file: MessageFile): StatusMessagesRead {
  const start = file.content.replace(/^\uFEFF/, '').trimStart()[0];
  return start === '{' || start === '[' ? readItvStatusMessages(file.content, file.name) : readX12StatusMessages(file.content, file.name);
}

const normalisedPro = (pro: string) => pro.toUpperCase().replace(/[\s-]/g, '');

function describeKeys(message: StatusMessage): string {
  const { proNumber, scac, bolNumber, references, destinationPostalCode } = message.keys;
  const parts = [
    proNumber ? `PRO ${proNumber}${scac ? ` (${scac})` : ''}` : null,
    bolNumber ? `BOL ${bolNumber}` : null,
    references.length > 0 ? `reference ${references.join(', ')}${destinationPostalCode ? ` to ${destinationPostalCode}` : ''}` : null,
  ];
  return parts.filter(Boolean).join(', ') || '(no keys)';
}

async function listAll(api: ShipperApi, query: Record<string, string>): Promise<Shipment[]> {
  const found: Shipment[] = [];
  let cursor: string | undefined;
  do {
    const { data } = await api.listShipments({ ...query, limit: 500, ...(cursor ? { cursor } : {}) });
    found.push(...data.items);
    cursor = data.nextCursor ?? undefined;
  } while (cursor);
  return found;
}

/** Shipments by each of many keys, asked 100 at a time (the list filter's limit). */
async function byKeys(api: ShipperApi, filter: 'proNumber' | 'bolNumber', keys: readonly string[], keyOf: (shipment: Shipment) => string | null): Promise<Map<string, Shipment[]>> {
  const found = new Map<string, Shipment[]>();
  for (let index = 0; index < keys.length; index += 100) {
    for (const shipment of await listAll(api, { [filter]: keys.slice(index, index + 100).join(',') })) {
      const key = keyOf(shipment);
      if (key !== null) found.set(key, [...(found.get(key) ?? []), shipment]);
    }
  }
  return found;
}

/** One shipment of the candidates: the booked one when there is a single booked one, else the single one. */
function single(candidates: readonly Shipment[]): Shipment | 'ambiguous' | undefined {
  if (candidates.length <= 1) return candidates[0];
  const booked = candidates.filter((shipment) => shipment.orderStatus !== 'CANCELLED');
  return booked.length === 1 ? booked[0] : 'ambiguous';
}

/**
 * How long before a shipment was booked an event may still be its own (a carrier's clock, a
 * pickup recorded before the booking reached the system): a day. An earlier event is another
 * shipment's (a reused PRO, an old reference) and is not applied.
 */
const EVENT_BEFORE_BOOKING_MS = 24 * 3_600_000;

/** When the message's event happened, read for this shipment (its places give the zones); undefined when it cannot be read. */
type EventTime = (shipment: Shipment) => Date | undefined;

class Matcher {
  private pros = new Map<string, Shipment[]>();
  private bols = new Map<string, Shipment[]>();
  private refs = new Map<string, Shipment[]>();

  constructor(private readonly api: ShipperApi) {}

  /**
   * The candidates the event can belong to: those booked before it (within EVENT_BEFORE_BOOKING_MS);
   * `why` says why none of them is when some were found by the key.
   */
  private booked(candidates: readonly Shipment[], eventTime: EventTime, key: string): { fitting: Shipment[]; why?: string } {
    const fitting = candidates.filter((shipment) => {
      const at = eventTime(shipment);
      return at === undefined || at.getTime() >= Date.parse(shipment.createdAt) - EVENT_BEFORE_BOOKING_MS;
    });
    if (fitting.length > 0 || candidates.length === 0) return { fitting };
    const at = eventTime(candidates[0]!)!;
    const on = candidates.map((candidate) => `${candidate.orderNumber} (booked ${candidate.createdAt.slice(0, 16).replace('T', ' ')} UTC)`).join(', ');
    return {
      fitting,
      why: `the event of ${at.toISOString().slice(0, 16).replace('T', ' ')} UTC is more than 24 hours before ${key} was booked on ${on}: an event matches only a shipment booked before it (a reused PRO or reference)`,
    };
  }

  async prepare(messages: readonly StatusMessage[]): Promise<void> {
    const pros = new Set<string>();
    const bols = new Set<string>();
    for (const { keys } of messages) {
      if (keys.proNumber && /^[A-Za-z0-9 -]{1,24}$/.test(keys.proNumber)) pros.add(normalisedPro(keys.proNumber));
      if (keys.bolNumber && /^\d{17}$/.test(keys.bolNumber)) bols.add(keys.bolNumber);
    }
    this.pros = await byKeys(this.api, 'proNumber', [...pros], (shipment) => (shipment.proNumber ? normalisedPro(shipment.proNumber) : null));
    this.bols = await byKeys(this.api, 'bolNumber', [...bols], (shipment) => shipment.bolNumber);
  }

  async match(message: StatusMessage, eventTime: EventTime): Promise<{ shipment: Shipment } | { reason: string }> {
    const { proNumber, scac, bolNumber, references, destinationPostalCode } = message.keys;
    const reasons: string[] = [];
    if (proNumber) {
      const carried = this.pros.get(normalisedPro(proNumber)) ?? [];
      // The PRO of this carrier: a shipment with another carrier's SCAC is another carrier's PRO.
      const { fitting: candidates, why } = this.booked(
        scac ? carried.filter((shipment) => !shipment.carrier || shipment.carrier.scac === scac) : carried,
        eventTime,
        `PRO ${proNumber}`,
      );
      const found = single(candidates);
      if (found && found !== 'ambiguous') return { shipment: found };
      reasons.push(why ?? (found === 'ambiguous' ? `PRO ${proNumber} is on ${candidates.length} shipments` : `no shipment has PRO ${proNumber}${scac ? ` of ${scac}` : ''}`));
    }
    if (bolNumber) {
      const { fitting, why } = this.booked(this.bols.get(bolNumber) ?? [], eventTime, `BOL ${bolNumber}`);
      const found = single(fitting);
      if (found && found !== 'ambiguous') return { shipment: found };
      reasons.push(why ?? `no shipment has BOL ${bolNumber}`);
    }
    const zip5 = destinationPostalCode ? leadingZip5(destinationPostalCode) : undefined;
    if (zip5) {
      for (const reference of references) {
        const key = `${reference}\u0000${zip5}`;
        let listed = this.refs.get(key);
        if (!listed) {
          listed = reference.length <= 64 ? await listAll(this.api, { refNumber: reference, to: zip5 }) : [];
          this.refs.set(key, listed);
        }
        const { fitting: candidates, why } = this.booked(listed, eventTime, `reference ${reference}`);
        const found = single(candidates);
        if (found && found !== 'ambiguous') return { shipment: found };
        reasons.push(
          why ??
            (found === 'ambiguous'
              ? `reference ${reference} to ${destinationPostalCode} is on ${candidates.length} shipments`
              : `no shipment has reference ${reference} to ${destinationPostalCode}`),
        );
      }
    } else if (references.length > 0) reasons.push('a reference alone does not match: the message gives no destination ZIP');
    return { reason: reasons.join('; ') || 'the message names no PRO, BOL number or reference' };
  }
}

export interface TrackImportOptions {
  zones: PlaceZones;
  now: Date;
}

export async function importStatusMessages(api: ShipperApi, files: readonly MessageFile[], options: TrackImportOptions): Promise<TrackImportReport> {
  const report: TrackImportReport = { files: files.length, messages: 0, shipments: 0, added: 0, duplicates: 0, unmatched: [], refused: [], issues: [], warnings: [] };
  const messages: StatusMessage[] = [];
  for (const file of files) {
    const read = readMessageFile(file);
    // One push per item: a file's 100,000 messages spread into push() would overflow the stack.
    for (const message of read.messages) messages.push(message);
    for (const issue of read.issues) report.issues.push(issue);
  }
  report.messages = messages.length;
  const matcher = new Matcher(api);
  await matcher.prepare(messages);

  type Pending = { message: StatusMessage; event: ShipmentEventsRequestInput['events'][number] };
  const byShipment = new Map<string, { shipment: Shipment; pending: Pending[] }>();
  const latest = options.now.getTime() + MAX_EVENT_LEAD_MS;
  for (const message of messages) {
    const eventTime: EventTime = (shipment) => {
      try {
        return resolveTime(message, shipment, options.zones).occurredAt;
      } catch {
        // Unreadable: reported below for the shipment it matches.
        return undefined;
      }
    };
    const matched = await matcher.match(message, eventTime);
    if ('reason' in matched) {
      report.unmatched.push({ reference: message.reference, keys: describeKeys(message), reason: matched.reason });
      continue;
    }
    const { shipment } = matched;
    message.notices.forEach((notice) => report.warnings.push(messageNoticeWarning(message.reference, notice)));
    let time;
    try {
      time = resolveTime(message, shipment, options.zones);
    } catch (error) {
      report.issues.push({ file: message.file, line: message.line, message: (error as Error).message });
      continue;
    }
    for (const warning of time.warnings) report.warnings.push(warning);
    if (time.occurredAt.getTime() > latest) {
      report.refused.push({
        reference: message.reference,
        keys: describeKeys(message),
        reason: `${time.occurredAt.toISOString()} is more than 2 hours in the future: the carrier's clock or time zone is wrong`,
      });
      continue;
    }
    const place = message.place;
    const event = {
      occurredAt: time.occurredAt.toISOString(),
      source: message.source,
      ...(message.statusCode ? { statusCode: message.statusCode } : {}),
      ...(message.reasonCode ? { reasonCode: message.reasonCode.slice(0, 20) } : {}),
      ...(message.keys.scac && /^[A-Z]{2,4}$/.test(message.keys.scac) ? { scac: message.keys.scac } : {}),
      ...(place
        ? {
            place: Object.fromEntries(
              Object.entries({ city: place.city, state: place.state?.slice(0, 3), zipCode: place.zipCode?.slice(0, 10), countryCode: place.countryCode?.slice(0, 3) }).filter(
                ([, value]) => value,
              ),
            ),
          }
        : {}),
      ...(time.timeZone ? { timeZone: time.timeZone } : {}),
      messageReference: message.reference.slice(0, 200),
      ...(time.estimatedDeliveryAt ? { estimatedDeliveryAt: time.estimatedDeliveryAt.toISOString() } : {}),
      ...(message.note ? { note: message.note.slice(0, 500) } : {}),
    };
    const entry = byShipment.get(shipment.id) ?? { shipment, pending: [] };
    entry.pending.push({ message, event });
    byShipment.set(shipment.id, entry);
  }

  // Many shipments a request (one unit of work on the server), within the batch's limits.
  const batches: Array<Array<{ shipment: Shipment; pending: Pending[] }>> = [];
  let batch: Array<{ shipment: Shipment; pending: Pending[] }> = [];
  let eventsInBatch = 0;
  for (const entry of byShipment.values()) {
    for (let index = 0; index < entry.pending.length; index += MAX_EVENTS_PER_REQUEST) {
      const pending = entry.pending.slice(index, index + MAX_EVENTS_PER_REQUEST);
      if (batch.length === MAX_BATCH_SHIPMENTS || eventsInBatch + pending.length > MAX_BATCH_EVENTS) {
        batches.push(batch);
        batch = [];
        eventsInBatch = 0;
      }
      batch.push({ shipment: entry.shipment, pending });
      eventsInBatch += pending.length;
    }
  }
  if (batch.length > 0) batches.push(batch);
  const recorded = new Set<string>();
  for (const items of batches) {
    const { data, warnings } = await api.addShipmentEventsBatch({
      items: items.map(({ shipment, pending }) => ({ shipmentId: shipment.id, events: pending.map((item) => item.event) })),
    });
    report.warnings.push(...warnings);
    data.items.forEach((outcome, index) => {
      const { shipment, pending } = items[index]!;
      if (!outcome.ok) {
        const detail = outcome.problem.violations?.map((violation) => `${violation.field}: ${violation.reason}`).join('; ') || outcome.problem.detail || outcome.problem.title;
        for (const { message } of pending) report.refused.push({ reference: message.reference, keys: describeKeys(message), reason: `${shipment.orderNumber}: ${detail}` });
        return;
      }
      report.added += outcome.added.length;
      report.duplicates += outcome.duplicates;
      if (outcome.added.length > 0) recorded.add(shipment.id);
      for (const event of outcome.added) {
        if (event.source === 'x12-214' && event.milestone === 'INFO' && event.statusCode && !AT7_STATUS_CODES[event.statusCode]) {
          report.warnings.push(unknownStatusCodeWarning(event.messageReference ?? shipment.orderNumber, event.statusCode));
        }
      }
    });
  }
  report.shipments = recorded.size;
  return report;
}
