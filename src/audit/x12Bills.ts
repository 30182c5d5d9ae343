/**
 * Carriers' freight bills as ASC X12 210 (Motor Carrier Freight Details and Invoice, 004010),
 * read with the project's X12 reader (src/edi/x12.ts: separators from the ISA, envelope counts and
 * control numbers checked, every segment with its line). One bill per transaction set. Pure.
 *
 * What is read, after carriers' published 210 guides:
 * - B3: B302 invoice number, B303 shipment id (the BOL when it is 17 digits, else the PRO), B306
 *   invoice date, B307 net amount due (the total when there is no L3), B311 the carrier's SCAC;
 *   C301 the currency (USD only); N9 references: CN the carrier's PRO, BM the bill of lading.
 * - One LX loop per detail line. A loop with an L0 is a freight line: L004 the billed weight (L011
 *   K converts kilograms), L008 the pieces, L7 L707 the billed class, L5 the description and the
 *   NMFC item (L503 when L504 is N); its L1 charge (L104, cents) is linehaul. Every other L1 is a
 *   charge of the kind its code (L108) says: fuel, discount, linehaul or an accessorial.
 * - L3: L305 the total charges.
 */
import { elementOf, readX12Interchange, type X12ReadSegment } from '../edi/x12.js';
import {
  absurdAmountProblem,
  MAX_BILLED_POUNDS,
  parseBillDate,
  parseFreightClass,
  type BillCharge,
  type BillIssue,
  type BillLine,
  type BillsRead,
  type CarrierBill,
} from './bill.js';
import { chargeKindOf, normaliseChargeCode } from './chargeCodes.js';

const POUNDS_PER_KILOGRAM = 2.20462262185;

interface DetailLoop {
  lx: X12ReadSegment;
  segments: X12ReadSegment[];
}

export function readX12Bills(text: string, file: string): BillsRead {
  const result = readX12Interchange(text);
  if (!result.ok)
    return {
      ok: false,
      issues: result.errors.map((error) => ({ file, line: error.line, message: error.message, ...(error.segment ? { where: `segment ${error.segment}` } : {}) })),
    };
  const issues: BillIssue[] = [];
  const bills: CarrierBill[] = [];
  for (const group of result.interchange.groups) {
    for (const set of group.transactionSets) {
      if (elementOf(set.st, 1) !== '210') {
        issues.push({
          file,
          line: set.st.line,
          where: 'ST01',
          message: `transaction set ${elementOf(set.st, 1)} is not a 210 freight bill (Motor Carrier Freight Details and Invoice)`,
        });
        continue;
      }
      const bill = readTransaction(set.st, set.segments, file, issues);
      if (bill) bills.push(bill);
    }
  }
  if (bills.length === 0 && issues.length === 0) issues.push({ file, line: result.interchange.isa.line, message: 'the interchange holds no 210 freight bill' });
  return issues.length > 0 ? { ok: false, issues } : { ok: true, bills };
}

/** N2 (two implied decimals) as cents; null when it is not a number. */
function impliedCents(value: string): number | null {
  return /^-?\d{1,15}$/.test(value) ? Number(value) : null;
}

function readTransaction(st: X12ReadSegment, segments: X12ReadSegment[], file: string, issues: BillIssue[]): CarrierBill | undefined {
  const before = issues.length;
  const issue = (segment: X12ReadSegment, element: string, message: string) => issues.push({ file, line: segment.line, where: element, message });
  const b3 = segments.find((segment) => segment.tag === 'B3');
  if (!b3) {
    issues.push({ file, line: st.line, where: 'B3', message: 'the 210 has no B3 segment (invoice number, shipment id, date, amount)' });
    return undefined;
  }
  const references = (qualifier: string) =>
    segments
      .filter((segment) => segment.tag === 'N9' && elementOf(segment, 1) === qualifier)
      .map((segment) => elementOf(segment, 2).trim())
      .filter(Boolean);
  const shipmentId = elementOf(b3, 3).trim();
  const bolNumber = references('BM')[0] ?? (/^\d{17}$/.test(shipmentId) ? shipmentId : null);
  const invoiceNumber = elementOf(b3, 2).trim() || null;
  const proNumber = references('CN')[0] ?? (shipmentId && !/^\d{17}$/.test(shipmentId) ? shipmentId : null) ?? (bolNumber ? null : invoiceNumber);
  if (!proNumber && !bolNumber) issue(b3, 'B303', 'the bill names no shipment: no PRO (N9*CN, B303) and no bill of lading number (N9*BM)');

  const c3 = segments.find((segment) => segment.tag === 'C3');
  if (c3 && elementOf(c3, 1) && elementOf(c3, 1) !== 'USD') issue(c3, 'C301', `the bill is in ${elementOf(c3, 1)}; shipper audits bills in USD`);
  const dateText = elementOf(b3, 6);
  const billDate = dateText ? parseBillDate(dateText) : null;
  if (dateText && !billDate) issue(b3, 'B306', `${JSON.stringify(dateText)} is not a date CCYYMMDD`);

  // The detail loops: from each LX to the next LX (or the L3).
  const loops: DetailLoop[] = [];
  let l3: X12ReadSegment | undefined;
  for (const segment of segments) {
    if (segment.tag === 'LX') loops.push({ lx: segment, segments: [] });
    else if (segment.tag === 'L3') l3 = segment;
    else if (loops.length > 0 && !l3) loops.at(-1)!.segments.push(segment);
  }

  const lines: BillLine[] = [];
  const accessorials: BillCharge[] = [];
  let linehaul = 0;
  let discount = 0;
  let fuel = 0;
  for (const loop of loops) {
    const find = (tag: string) => loop.segments.find((segment) => segment.tag === tag);
    const l0 = find('L0');
    const l5 = find('L5');
    if (l0) {
      const weightText = elementOf(l0, 4);
      const unit = elementOf(l0, 11) || 'L';
      let pounds = /^\d+(\.\d+)?$/.test(weightText) ? Number(weightText) : NaN;
      if (unit === 'K') pounds = Math.round(pounds * POUNDS_PER_KILOGRAM * 100) / 100;
      else if (unit !== 'L') issue(l0, 'L011', `weight unit ${JSON.stringify(unit)} is neither L (pounds) nor K (kilograms)`);
      if (!(pounds > 0 && pounds <= MAX_BILLED_POUNDS))
        issue(l0, 'L004', `the billed weight must be a number of pounds above 0 and at most ${MAX_BILLED_POUNDS.toLocaleString('en-US')} (got ${JSON.stringify(weightText)})`);
      const l7 = find('L7');
      const classText = l7 ? elementOf(l7, 7) : '';
      const freightClass = classText ? parseFreightClass(classText) : null;
      if (l7 && classText && !freightClass) issue(l7, 'L707', `${JSON.stringify(classText)} is not an NMFC freight class (50 to 500)`);
      const piecesText = elementOf(l0, 8);
      lines.push({
        line: lines.length + 1,
        poundsWeight: pounds > 0 && pounds <= MAX_BILLED_POUNDS ? pounds : 0,
        freightClass,
        description: l5 ? elementOf(l5, 2).trim() || null : null,
        nmfcCode: l5 && elementOf(l5, 4) === 'N' ? elementOf(l5, 3).trim() || null : null,
        pieces: /^\d{1,6}$/.test(piecesText) ? Number(piecesText) : null,
      });
    }
    for (const l1 of loop.segments.filter((segment) => segment.tag === 'L1')) {
      const cents = impliedCents(elementOf(l1, 4));
      if (cents === null) {
        issue(l1, 'L104', `the charge must be an amount in cents (N2), got ${JSON.stringify(elementOf(l1, 4))}`);
        continue;
      }
      const absurd = absurdAmountProblem(cents);
      if (absurd) {
        issue(l1, 'L104', `the charge: ${absurd}`);
        continue;
      }
      const code = normaliseChargeCode(elementOf(l1, 8));
      const kind = code === '' ? 'linehaul' : chargeKindOf(code);
      if (kind === 'linehaul') linehaul += cents;
      else if (kind === 'fuel') fuel += cents;
      else if (kind === 'discount') discount += Math.abs(cents);
      else accessorials.push({ code, description: !l0 && l5 ? elementOf(l5, 2).trim() || null : null, amountInCents: cents });
    }
  }
  if (lines.length === 0) issues.push({ file, line: st.line, where: 'L0', message: 'the 210 bills no freight line (no LX loop with an L0 weight)' });

  const totalText = l3 ? elementOf(l3, 5) : '';
  const total = impliedCents(totalText || elementOf(b3, 7));
  if (total === null) issue(l3 ?? b3, l3 ? 'L305' : 'B307', `the bill's total must be an amount in cents (N2), got ${JSON.stringify(totalText || elementOf(b3, 7))}`);
  const absurdTotal = total === null ? undefined : absurdAmountProblem(total);
  if (absurdTotal) issue(l3 ?? b3, l3 ? 'L305' : 'B307', `the bill's total: ${absurdTotal}`);

  if (issues.length > before) return undefined;
  return {
    source: { file, line: st.line, format: 'x12-210' },
    invoiceNumber,
    proNumber,
    bolNumber,
    scac: elementOf(b3, 11).trim().toUpperCase() || null,
    billDate,
    lines,
    linehaulInCents: linehaul,
    discountInCents: discount,
    fuelSurchargeInCents: fuel,
    accessorials,
    totalInCents: total!,
  };
}
