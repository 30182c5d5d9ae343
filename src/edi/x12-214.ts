/**
 * Carriers' shipment status messages as ASC X12 214 (Transportation Carrier Shipment Status
 * Message, 004010), read with the project's X12 reader, several interchanges and transaction sets
 * per file, any separators (each interchange's own ISA says them). Pure. One StatusMessage per AT7.
 *
 * What is read, after carriers' published 214 guides:
 * - B10: B1001 the carrier's reference (the PRO), B1002 the shipment identification (the shipper's
 *   BOL number or reference), B1003 the SCAC.
 * - L11 (anywhere in the set): BM the bill of lading, CN/PRO the PRO; PO, CR, SI, SO, SN-less
 *   others as the shipper's references.
 * - N1 loops: the consignee's (CN) or ship-to's (ST) N4 postal code, the destination ZIP.
 * - Each LX loop: AT7 segments (AT701 status, AT702 reason, AT703/AT704 an appointment's status
 *   and reason, AT705 date CCYYMMDD, AT706 time, AT707 time code: none or LT for local time), each
 *   with the MS1 after it (MS101 city, MS102 state, MS103 country) as its place. AG and X2 give the
 *   carrier's ETA in AT705/AT706: such an event happened when the group was sent (GS04/GS05).
 *
 * Empty elements hold positions (AT7*X1*NS***20261124*0930); line breaks inside a segment are
 * layout and are dropped from its values.
 */
import { x12Date, x12Time, zoneOfX12TimeCode, type LocalStamp, type WrittenZone } from '../domain/eventTime.js';
import { elementOf, type X12ReadSegment } from './x12.js';
import { readX12Interchanges } from './x12Interchanges.js';
import type { MessageIssue, ShipmentKeys, StatusMessage, StatusMessagesRead } from './statusMessages.js';

const ETA_CODES = new Set(['AG', 'X2']);
const PRO_QUALIFIERS = new Set(['CN', 'PRO', '08']);
const BOL_QUALIFIERS = new Set(['BM', 'BL']);
const REFERENCE_QUALIFIERS = new Set(['PO', 'CR', 'SI', 'SO', 'IA', 'ON', 'OQ', 'CO', 'RF', '2H', 'AO']);

/** An element's value, line breaks (layout) and the padding around it dropped. */
function value(segment: X12ReadSegment, position: number): string {
  return elementOf(segment, position)
    .replace(/[\r\n]/g, '')
    .trim();
}

export function readX12StatusMessages(text: string, file: string): StatusMessagesRead {
  const read = readX12Interchanges(text);
  const issues: MessageIssue[] = read.errors.map((error) => ({ file, line: error.line, message: error.segment ? `${error.segment}: ${error.message}` : error.message }));
  const messages: StatusMessage[] = [];
  for (const interchange of read.interchanges) {
    const isaNumber = value(interchange.isa, 13);
    for (const group of interchange.groups) {
      const sent = { date: x12Date(value(group.gs, 4)), time: x12Time(value(group.gs, 5)) };
      for (const set of group.transactionSets) {
        if (value(set.st, 1) !== '214') {
          issues.push({ file, line: set.st.line, message: `transaction set ${value(set.st, 1) || '(none)'} is not a 214 shipment status message` });
          continue;
        }
        const where = (segment: X12ReadSegment) => `${file} line ${segment.line} (ISA ${isaNumber}, ST ${value(set.st, 2)})`;
        readTransaction(set.st, set.segments, { file, where, sent, messages, issues });
      }
    }
  }
  return { messages, issues };
}

interface SetContext {
  file: string;
  where: (segment: X12ReadSegment) => string;
  sent: { date: string | null; time: string | null };
  messages: StatusMessage[];
  issues: MessageIssue[];
}

function keysOf(segments: readonly X12ReadSegment[]): ShipmentKeys {
  const b10 = segments.find((segment) => segment.tag === 'B10');
  const keys: ShipmentKeys = { proNumber: null, scac: null, bolNumber: null, references: [], destinationPostalCode: null };
  if (b10) {
    keys.proNumber = value(b10, 1) || null;
    keys.scac = value(b10, 3).toUpperCase() || null;
    const shipmentId = value(b10, 2);
    if (/^\d{17}$/.test(shipmentId)) keys.bolNumber = shipmentId;
    else if (shipmentId) keys.references.push(shipmentId);
  }
  let party = '';
  for (const segment of segments) {
    if (segment.tag === 'N1') party = value(segment, 1).toUpperCase();
    if (segment.tag === 'LX') party = '';
    if (segment.tag === 'N4' && (party === 'CN' || party === 'ST') && !keys.destinationPostalCode) keys.destinationPostalCode = value(segment, 3) || null;
    if (segment.tag !== 'L11') continue;
    const reference = value(segment, 1);
    const qualifier = value(segment, 2).toUpperCase();
    if (!reference) continue;
    if (BOL_QUALIFIERS.has(qualifier)) keys.bolNumber ??= reference;
    else if (PRO_QUALIFIERS.has(qualifier)) keys.proNumber ??= reference;
    else if (REFERENCE_QUALIFIERS.has(qualifier) && !keys.references.includes(reference)) keys.references.push(reference);
  }
  return keys;
}

function readTransaction(st: X12ReadSegment, segments: readonly X12ReadSegment[], context: SetContext): void {
  const { file, where, sent, messages, issues } = context;
  const keys = keysOf(segments);
  if (!segments.some((segment) => segment.tag === 'B10')) issues.push({ file, line: st.line, message: 'the 214 has no B10 segment (PRO, shipment id, SCAC)' });
  if (!keys.proNumber && !keys.bolNumber && keys.references.length === 0) {
    issues.push({ file, line: st.line, message: 'the 214 names no shipment: no PRO (B1001), no bill of lading (B1002, L11*BM) and no reference' });
    return;
  }
  if (!segments.some((segment) => segment.tag === 'AT7')) issues.push({ file, line: st.line, message: 'the 214 has no AT7 status' });
  // One pass (a copy of the rest of the set per AT7 made a set of 100,000 statuses quadratic).
  for (let index = 0; index < segments.length; index += 1) {
    const at7 = segments[index]!;
    if (at7.tag !== 'AT7') continue;
    // The place: the MS1 after this AT7, before the next AT7 or LX.
    let ms1: X12ReadSegment | undefined;
    for (let next = index + 1; next < segments.length && !ms1; next += 1) {
      const tag = segments[next]!.tag;
      if (tag === 'AT7' || tag === 'LX') break;
      if (tag === 'MS1') ms1 = segments[next];
    }
    const status = value(at7, 1).toUpperCase();
    const appointment = value(at7, 3).toUpperCase();
    const code = status || appointment;
    if (!code) {
      issues.push({ file, line: at7.line, message: 'AT701: the AT7 has neither a status code (AT701) nor an appointment status (AT703)' });
      continue;
    }
    const dateText = value(at7, 5);
    const timeText = value(at7, 6);
    const date = x12Date(dateText);
    const time = timeText ? x12Time(timeText) : null;
    if (!date) {
      issues.push({ file, line: at7.line, message: `AT705: ${JSON.stringify(dateText)} is not a date CCYYMMDD` });
      continue;
    }
    if (timeText && !time) {
      issues.push({ file, line: at7.line, message: `AT706: ${JSON.stringify(timeText)} is not a time HHMM` });
      continue;
    }
    const notices: string[] = [];
    const timeCode = value(at7, 7);
    let zone: WrittenZone | 'local' | undefined = zoneOfX12TimeCode(timeCode);
    if (zone === undefined) {
      notices.push(`time code ${JSON.stringify(timeCode)} (AT707) is not one shipper knows; the time is read as local time at the place`);
      zone = 'local';
    }
    if (!time) notices.push('the AT7 gives no time (AT706); the event is placed at noon');
    const stamp: LocalStamp = { date, time };
    const isEta = status !== '' && ETA_CODES.has(status);
    if (isEta && !sent.date) {
      issues.push({ file, line: at7.line, message: `${status} gives an ETA, and the GS has no date (GS04) to say when it was sent` });
      continue;
    }
    messages.push({
      source: 'x12-214',
      reference: where(at7),
      file,
      line: at7.line,
      keys,
      statusCode: code,
      reasonCode: (status ? value(at7, 2) : value(at7, 4)).toUpperCase() || null,
      // An ETA message happened when it was sent; its AT705/AT706 are the ETA.
      stamp: isEta ? { date: sent.date!, time: sent.time } : stamp,
      zone,
      place: ms1 ? { city: value(ms1, 1) || null, state: value(ms1, 2).toUpperCase() || null, zipCode: null, countryCode: value(ms1, 3).toUpperCase() || null } : null,
      eta: isEta ? { stamp, zone } : null,
      note: status ? null : `appointment status ${appointment}`,
      notices,
    });
  }
}
