/**
 * The pallet label plan, PURE: one GS1 logistic label per handling unit (the sum of palletCount
 * over the components), 4 x 6 in (288 x 432 pt), as drawing operations that the PDF renderer and
 * the ZPL writer both execute. Layout follows the GS1 Logistic Label Guideline's building blocks,
 * top to bottom: free format (ship from, ship to), carrier (carrier, SCAC, PRO, BOL number), text
 * (reference, order number, pallet n of N, the line's contents) and the barcode block at the
 * bottom, where the SSCC is the lowest barcode, as GS1-128 with AI (00) and its human-readable
 * interpretation under it.
 *
 * The SSCCs are the caller's (one per handling unit, in order, stable on reprint). Every box has a
 * fixed size: long values shrink, then wrap, then are cut with an ellipsis; nothing leaves its box.
 */
import { hazmatBasicDescription } from '../domain/hazmatDescription.js';
import type { Address, Shipment } from '../domain/schemas.js';
import { isValidSscc, ssccElementString, ssccHumanReadable } from '../domain/sscc.js';
import { LINE_SPACING, PageOps, type DrawOp, type TextMetrics } from '../print/drawOps.js';
import { clampLines, fitText, oneLine, truncateToWidth } from '../print/text.js';
import { ShipperError, type ErrorCode } from '../domain/errors.js';

/** 4 x 6 in, portrait. */
export const LABEL_SIZE = { width: 288, height: 432 } as const;

/**
 * The SSCC barcode in printer dots at 203 dpi: 4 dots a module is an X-dimension of 0.50 mm (GS1
 * asks at least 0.495 mm for SSCCs on logistic labels) and 260 dots are 32.5 mm of bar height (at
 * least 31.75 mm). The PDF draws the same size in points.
 */
export const SSCC_BARCODE = { dpi: 203, moduleDots: 4, heightDots: 260 } as const;
/** Start C, FNC1, 20 digits "00" + SSCC as 10 code-C pairs, check, stop: 11 * 13 + 13. */
export const SSCC_BARCODE_MODULES = 156;

const dotsToPoints = (dots: number) => (dots * 72) / SSCC_BARCODE.dpi;
const BARCODE_WIDTH = dotsToPoints(SSCC_BARCODE_MODULES * SSCC_BARCODE.moduleDots);
const BARCODE_HEIGHT = dotsToPoints(SSCC_BARCODE.heightDots);

const MARGIN = 10;
const GAP = 4;
/** Data titles (GS1: the text above a value saying what it is) and values. */
const SIZE = { title: 6, from: 7.5, toName: 11, to: 9, toCity: 10.5, carrier: 8, pro: 16, bol: 10, reference: 10, pallet: 22, contents: 8, hri: 10 } as const;

/** The shipment gets no labels (cancelled, nothing to label): a conflict, 409. */
export class LabelError extends ShipperError {
  readonly code: ErrorCode = 'LABEL';
  override name = 'LabelError';
}

/** One handling unit: which component it belongs to and its place among that component's pallets. */
export interface HandlingUnit {
  componentIndex: number;
  /** 1-based, within the component. */
  unitInComponent: number;
}

/** Every handling unit of the shipment, component by component: one label each. */
export function handlingUnits(shipment: Pick<Shipment, 'orderComponents'>): HandlingUnit[] {
  return shipment.orderComponents.flatMap((component, componentIndex) =>
    Array.from({ length: component.palletCount }, (_, index) => ({ componentIndex, unitInComponent: index + 1 })),
  );
}

export interface LabelPlan {
  /** 1-based: "pallet n of N". */
  number: number;
  count: number;
  sscc: string;
  unit: HandlingUnit;
  ops: DrawOp[];
}

export interface LabelLayout {
  pageWidth: number;
  pageHeight: number;
  labels: LabelPlan[];
}

export interface LabelOptions {
  /** The GS1 company prefix the SSCCs were issued under, to group their printed digits as GS1 does. */
  companyPrefix?: string;
}

/**
 * Refuses what must not be labelled: a cancelled shipment (its pallets do not ship), and SSCCs
 * that are not one valid, distinct SSCC per handling unit.
 */
export function checkLabelRequest(shipment: Pick<Shipment, 'orderNumber' | 'orderStatus' | 'orderComponents'>, ssccs: readonly string[]): void {
  if (shipment.orderStatus === 'CANCELLED') throw new LabelError(`${shipment.orderNumber} is cancelled: its pallets get no labels`);
  const count = handlingUnits(shipment).length;
  if (count === 0) throw new LabelError(`${shipment.orderNumber} has no handling units to label`);
  if (ssccs.length !== count) throw new LabelError(`${shipment.orderNumber} has ${count} handling unit(s) and needs as many SSCCs; got ${ssccs.length}`);
  const invalid = ssccs.find((sscc) => !isValidSscc(sscc));
  if (invalid !== undefined) throw new LabelError(`"${invalid}" is not an SSCC (18 digits ending in the GS1 check digit)`);
  const seen = new Set<string>();
  for (const sscc of ssccs) {
    if (seen.has(sscc)) throw new LabelError(`SSCC ${sscc} is given twice: every pallet needs its own`);
    seen.add(sscc);
  }
}

export function layoutLabels(shipment: Shipment, ssccs: readonly string[], metrics: TextMetrics, options: LabelOptions = {}): LabelLayout {
  checkLabelRequest(shipment, ssccs);
  const units = handlingUnits(shipment);
  const labels = units.map((unit, index): LabelPlan => {
    const sscc = ssccs[index]!;
    const page = new PageOps(LABEL_SIZE.height, metrics);
    drawLabel(page, metrics, shipment, unit, index + 1, units.length, sscc, options);
    return { number: index + 1, count: units.length, sscc, unit, ops: page.ops };
  });
  return { pageWidth: LABEL_SIZE.width, pageHeight: LABEL_SIZE.height, labels };
}

// ---------------------------------------------------------------------------------------------
// One label

interface Fitted {
  lines: string[];
  size: number;
}

/** Text fitted into a fixed box: shrink to `minSize`, then wrap to `maxLines`, then cut. */
function fit(metrics: TextMetrics, text: string, width: number, maxLines: number, size: number, minSize: number, bold: boolean): Fitted {
  const fitted = fitText(metrics.printable(oneLine(text)), width, maxLines, size, minSize, bold, metrics);
  return { lines: clampLines(fitted.lines, maxLines, width, fitted.size, metrics, bold), size: fitted.size };
}

function cityLine(address: Address): string {
  return `${address.city}, ${address.state} ${address.zipCode}`;
}

function drawLabel(page: PageOps, metrics: TextMetrics, shipment: Shipment, unit: HandlingUnit, number: number, count: number, sscc: string, options: LabelOptions): void {
  const left = MARGIN;
  const right = LABEL_SIZE.width - MARGIN;
  const width = right - left;
  const title = (text: string, x: number, top: number) => page.text(text, x, top, SIZE.title, { bold: true });
  const put = (fitted: Fitted, x: number, top: number, bold: boolean) => page.lines(fitted.lines, x, top, fitted.size, { bold });
  const single = (text: string, x: number, top: number, maxWidth: number, size: number, bold = false) => {
    page.text(truncateToWidth(metrics.printable(oneLine(text)), maxWidth, size, bold, metrics), x, top, size, { bold });
    return size * LINE_SPACING;
  };
  const titleHeight = SIZE.title * LINE_SPACING + 1;

  // Free-format block: ship from (left) and ship to (right, larger: it is read from a distance).
  let top = MARGIN;
  const addressHeight = 92;
  const fromWidth = Math.round(width * 0.36);
  const toX = left + fromWidth + GAP;
  const toWidth = right - toX;
  {
    const from = shipment.pickupAddress;
    let y = top;
    title('FROM', left, y);
    y += titleHeight;
    const name = fit(metrics, from.name, fromWidth - GAP, 2, SIZE.from, SIZE.title, true);
    y += put(name, left, y, true);
    for (const line of [from.address1, from.address2, cityLine(from)]) if (line) y += single(line, left, y, fromWidth - GAP, SIZE.from);

    const to = shipment.deliveryAddress;
    y = top;
    title('TO', toX, y);
    y += titleHeight;
    y += put(fit(metrics, to.name, toWidth, 2, SIZE.toName, SIZE.to, true), toX, y, true);
    for (const line of [to.address1, to.address2]) if (line) y += single(line, toX, y, toWidth, SIZE.to);
    put(fit(metrics, cityLine(to), toWidth, 1, SIZE.toCity, SIZE.to, true), toX, y, true);
    page.vline(left + fromWidth, top, top + addressHeight - GAP);
  }
  top += addressHeight;
  page.hline(left, right, top, 1, 'text');

  // Carrier block: carrier and PRO when known, and the BOL number.
  top += GAP;
  const carrierHeight = 58;
  const bolWidth = 112;
  const carrierWidth = width - bolWidth - GAP;
  {
    let y = top;
    title('CARRIER', left, y);
    y += titleHeight;
    const carrier = shipment.carrier ? `${shipment.carrier.name} (${shipment.carrier.scac})` : 'not assigned';
    y += put(fit(metrics, carrier, carrierWidth, 1, SIZE.carrier, SIZE.title, shipment.carrier !== null), left, y, shipment.carrier !== null);
    if (shipment.proNumber) {
      title('PRO', left, y + 1);
      y += titleHeight + 1;
      put(fit(metrics, shipment.proNumber, carrierWidth, 1, SIZE.pro, SIZE.carrier, true), left, y, true);
    }
    const bolX = right - bolWidth;
    title('BILL OF LADING', bolX, top);
    let bolY = top + titleHeight;
    bolY += put(fit(metrics, shipment.bolNumber, bolWidth, 1, SIZE.bol, SIZE.title, true), bolX, bolY, true);
    title('PICKUP DATE', bolX, bolY + 1);
    single(shipment.requiredPickupDate, bolX, bolY + titleHeight + 1, bolWidth, SIZE.carrier, true);
    page.vline(bolX - GAP / 2, top, top + carrierHeight - GAP);
  }
  top += carrierHeight;
  page.hline(left, right, top, 1, 'text');

  // The barcode block sits on the bottom margin; the text block takes the room left above it.
  const hriHeight = SIZE.hri * LINE_SPACING;
  const barcodeBlockTop = LABEL_SIZE.height - MARGIN - (titleHeight + 2 + BARCODE_HEIGHT + 3 + hriHeight);

  // Text block: reference and order number, pallet n of N, what is on the pallet.
  top += GAP;
  const textHeight = barcodeBlockTop - GAP - top;
  {
    const palletWidth = 104;
    const referenceWidth = width - palletWidth - GAP;
    let y = top;
    title('REFERENCE / PO', left, y);
    y += titleHeight;
    y += single(shipment.refNumber ?? '-', left, y, referenceWidth, SIZE.reference, true);
    title('ORDER', left, y + 1);
    y += titleHeight + 1;
    y += single(shipment.orderNumber, left, y, referenceWidth, SIZE.reference, true);

    const palletX = right - palletWidth;
    title('PALLET', palletX, top);
    put(fit(metrics, `${number} of ${count}`, palletWidth, 1, SIZE.pallet, SIZE.reference, true), palletX, top + titleHeight, true);

    y += 2;
    const component = shipment.orderComponents[unit.componentIndex]!;
    const lines = shipment.orderComponents.length;
    single(contentsTitle(unit.componentIndex + 1, lines, unit.unitInComponent, component.palletCount), left, y, width, SIZE.title, true);
    y += titleHeight;
    const room = top + textHeight - GAP - y;
    const maxLines = Math.max(1, Math.floor(room / (SIZE.contents * LINE_SPACING)));
    if (component.hazmat) {
      const hazmat = fit(metrics, hazmatBasicDescription(component.hazmat), width, Math.min(2, maxLines), SIZE.contents, SIZE.title, true);
      y += put(hazmat, left, y, true);
    }
    const remaining = Math.floor((top + textHeight - GAP - y) / (SIZE.contents * LINE_SPACING));
    if (component.description && remaining > 0) put(fit(metrics, component.description, width, remaining, SIZE.contents, SIZE.title, false), left, y, false);
  }
  top += textHeight;
  page.hline(left, right, top, 1, 'text');

  // Barcode block, at the bottom: the SSCC, its data title and its human-readable interpretation.
  top = barcodeBlockTop;
  title('SSCC', left, top);
  top += titleHeight + 2;
  const barcodeX = (LABEL_SIZE.width - BARCODE_WIDTH) / 2;
  page.barcode('gs1-128', ssccElementString(sscc), SSCC_BARCODE_MODULES, barcodeX, top, BARCODE_WIDTH, BARCODE_HEIGHT);
  top += BARCODE_HEIGHT + 3;
  page.text(ssccHumanReadable(sscc, options.companyPrefix), LABEL_SIZE.width / 2, top, SIZE.hri, { bold: true, align: 'center', boxWidth: width });
}

/**
 * The title over a pallet's contents. The PALLET box already says "2 of 5" of the shipment: the
 * title names the line only when there are several ("CONTENTS: LINE 1 OF 3, PALLET 2 OF ITS 2",
 * "CONTENTS: LINE 2 OF 3, ITS ONLY PALLET"); a shipment of one line says "CONTENTS".
 */
function contentsTitle(line: number, lines: number, pallet: number, pallets: number): string {
  if (lines === 1) return 'CONTENTS';
  return `CONTENTS: LINE ${line} OF ${lines}, ${pallets === 1 ? 'ITS ONLY PALLET' : `PALLET ${pallet} OF ITS ${pallets}`}`;
}
