/**
 * The BOL page plan, PURE: from a shipment, a template and a text-measuring function to a list of
 * pages, each with the rows it carries and the drawing operations (text, lines, boxes, images,
 * barcodes, the VOID stamp) in PDF coordinates (points, origin bottom-left). The pdf-lib adapter
 * only executes the operations, so everything about the layout (wrapping, pagination, totals, the
 * reference line, where each carrier field goes) is unit-tested here without a PDF.
 *
 * Where the carrier fields go (VICS Bill of Lading): FOB boxes on the SID# / CID# lines of ship
 * from and ship to; carrier name, trailer, seals, SCAC and PRO (12-pt bold, with the SCAC/PRO
 * barcode) in the carrier box; the terms boxes, the third-party bill-to and the master BOL box; the
 * declared value sentence and COD block above the liability notice. VICS has no pickup window
 * field: it heads the special instructions. Hazardous lines are marked X in the H.M. column with
 * the 49 CFR 172.202 basic description before the commodity text, and the emergency response
 * telephone number (172.604) is printed over the carrier table of every page.
 */
import type { Hazmat } from '../domain/carrier.js';
import { hazmatBasicDescription } from '../domain/hazmatDescription.js';
import { formatCents } from '../domain/money.js';
import { freightTotals } from '../domain/freightTotals.js';
import type { Address, RatedOrderComponent, Shipment } from '../domain/schemas.js';
import { placeDateOf } from '../domain/dates.js';
import { BASELINE, LINE_SPACING, PageOps, type DrawOp, type TextMetrics } from '../print/drawOps.js';
import { clampLines, fitText, oneLine, paragraphs, truncateToWidth, wrapText } from '../print/text.js';
import { bolBarcodeData } from './barcode.js';
import type { BolTemplateSpec } from './template.js';

export { wrapText };
export type { ColorRole, DrawOp } from '../print/drawOps.js';
/** What layout needs to know about the font; the renderer implements it with the embedded font. */
export type BolTextMetrics = TextMetrics;

/** One component's row in the carrier information table: the wrapped lines of each cell. */
export interface BolRow {
  componentIndex: number;
  cells: Record<CarrierColumnKey, string[]>;
  height: number;
}

export interface BolPagePlan {
  /** 1-based. */
  number: number;
  kind: 'first' | 'supplement';
  rows: BolRow[];
  /** The grand total row and the declared value / signature blocks are on this page. */
  hasTotals: boolean;
  /** PDF y of the bottom of the carrier table (its last row, or the totals) on this page. */
  tableBottomY: number;
  /** PDF y of the top of the declared value / signature blocks; null on pages without them. */
  footerTopY: number | null;
  ops: DrawOp[];
}

export interface BolTotals {
  handlingUnits: number;
  /** Sum of pieceCount; null when no component has one (the cell stays blank). */
  packages: number | null;
  poundsWeight: number;
}

export interface BolLayout {
  pageWidth: number;
  pageHeight: number;
  referenceLine: string;
  totals: BolTotals;
  pages: BolPagePlan[];
}

export const PAGE_SIZES = { letter: [612, 792], a4: [595.28, 841.89] } as const;

const MARGIN = 24;
const PAD = 3;
const BOX_BAR = 10;
/** Font sizes; VICS asks for 12-pt bold BOL number and SCAC/PRO. */
const SIZE = { title: 15, body: 7.5, label: 6, cell: 7, legal: 5.8, bolNumber: 12, scacPro: 12, notice: 6.8, emergency: 8 } as const;
const SPECIAL_INSTRUCTIONS_MAX_LINES = 20;

/** Width of the bars of the GS1-128 barcode; at 156 modules that is ~0.45 mm per module. */
export const BARCODE_BOX = { width: 200, height: 34 } as const;
/** Start C, FNC1, AI 402 and 17 digits in 10 code-C pairs, check and stop: 11 * 13 + 13 modules. */
const BOL_BARCODE_MODULES = 156;
/** The SCAC/PRO barcode (Code 128) in the carrier box's bar code space. */
export const PRO_BARCODE_BOX = { width: 200, height: 26 } as const;

// ---------------------------------------------------------------------------------------------
// Text helpers (pure)

/**
 * What the "customer order number" cell holds: the customer's own reference (their PO, the
 * shipment's refNumber), as `<refNumber> (<orderNumber>)` on templates that ask for it; the
 * internal order number only when there is no refNumber.
 */
export function referenceLine(shipment: Pick<Shipment, 'refNumber' | 'orderNumber'>, template: Pick<BolTemplateSpec, 'referenceFormat'>): string {
  const ref = shipment.refNumber?.trim();
  if (!ref) return shipment.orderNumber;
  return template.referenceFormat === 'ref-with-order-number' ? `${ref} (${shipment.orderNumber})` : ref;
}

const weightFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });
const countFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

export function formatWeight(pounds: number): string {
  return weightFormat.format(Math.round(pounds * 100) / 100);
}

/** The totals row in the BOL's words (handling units, packages). */
export function computeTotals(components: readonly RatedOrderComponent[]): BolTotals {
  const { pallets, pieces, poundsWeight } = freightTotals(components);
  return { handlingUnits: pallets, packages: pieces, poundsWeight };
}

function humanizeAccessorial(code: string): string {
  const words = code.toLowerCase().split('_').filter(Boolean).join(' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

// ---------------------------------------------------------------------------------------------
// Carrier information table

export type CarrierColumnKey = 'huQty' | 'huType' | 'pkgQty' | 'pkgType' | 'weight' | 'hm' | 'description' | 'nmfc' | 'freightClass';

interface Column<K extends string> {
  key: K;
  group: string | null;
  label: string;
  /** 0: takes the width left over by the others. */
  width: number;
  align: 'left' | 'center' | 'right';
}

const CARRIER_COLUMNS: readonly Column<CarrierColumnKey>[] = [
  { key: 'huQty', group: 'HANDLING UNIT', label: 'QTY', width: 32, align: 'center' },
  { key: 'huType', group: 'HANDLING UNIT', label: 'TYPE', width: 40, align: 'center' },
  { key: 'pkgQty', group: 'PACKAGE', label: 'QTY', width: 32, align: 'center' },
  { key: 'pkgType', group: 'PACKAGE', label: 'TYPE', width: 58, align: 'center' },
  { key: 'weight', group: null, label: 'WEIGHT (LB)', width: 52, align: 'right' },
  { key: 'hm', group: null, label: 'H.M. (X)', width: 26, align: 'center' },
  { key: 'description', group: null, label: 'COMMODITY DESCRIPTION', width: 0, align: 'left' },
  { key: 'nmfc', group: 'LTL ONLY', label: 'NMFC #', width: 58, align: 'center' },
  { key: 'freightClass', group: 'LTL ONLY', label: 'CLASS', width: 32, align: 'center' },
];

const HANDLING_UNIT_TYPE = 'Pallets';
/** The mark in the customer order table's PALLET/SLIP Y cell. */
const PALLET_MARK = 'X';

interface PlacedColumn<K extends string> extends Column<K> {
  x: number;
}

function placeColumns<K extends string>(columns: readonly Column<K>[], left: number, totalWidth: number): PlacedColumn<K>[] {
  const fixed = columns.reduce((sum, column) => sum + column.width, 0);
  let x = left;
  return columns.map((column) => {
    const width = column.width || totalWidth - fixed;
    const placed = { ...column, width, x };
    x += width;
    return placed;
  });
}

function cellX(column: PlacedColumn<string>): number {
  if (column.align === 'center') return column.x + column.width / 2;
  if (column.align === 'right') return column.x + column.width - PAD;
  return column.x + PAD;
}

// ---------------------------------------------------------------------------------------------
// The layout

interface Context {
  shipment: Shipment;
  places: BolPlaces;
  template: BolTemplateSpec;
  metrics: BolTextMetrics;
  pageWidth: number;
  pageHeight: number;
  left: number;
  right: number;
  width: number;
  referenceLine: string;
  totals: BolTotals;
  carrierColumns: PlacedColumn<CarrierColumnKey>[];
  carrier: { name: string | null; scac: string | null };
  terms: ResolvedTerms;
  /** At least one line is hazardous material: the emergency response number is printed. */
  hazardous: boolean;
}

interface ResolvedTerms {
  terms: (typeof SHIPMENT_TERMS)[keyof typeof SHIPMENT_TERMS];
  billTo: { name: string; lines: string[] } | null;
}

const SHIPMENT_TERMS = { PREPAID: 'prepaid', COLLECT: 'collect', THIRD_PARTY: 'third-party' } as const;

/**
 * The shipment's freight charge terms, as booked: the BOL ticks what the invoice and the carrier
 * files (X12 204/211, eBOL) say, whatever the template.
 */
export function resolveFreightTerms(shipment: Pick<Shipment, 'freightChargeTerms'>): ResolvedTerms {
  const { terms, billTo } = shipment.freightChargeTerms;
  return { terms: SHIPMENT_TERMS[terms], billTo: billTo ? { name: billTo.name, lines: addressTextLines(billTo) } : null };
}

/** The carrier of the shipment, else the template's default carrier. */
export function resolveCarrier(shipment: Pick<Shipment, 'carrier'>, template: Pick<BolTemplateSpec, 'carrier'>): { name: string | null; scac: string | null } {
  return shipment.carrier ? { name: shipment.carrier.name, scac: shipment.carrier.scac } : { name: template.carrier.name, scac: template.carrier.scac };
}

/**
 * What the SCAC/PRO barcode encodes (VICS): the SCAC extended to four characters with dashes,
 * then the PRO number. Null without both.
 */
export function scacProBarcodeData(carrier: { scac: string | null }, proNumber: string | null): string | null {
  if (!carrier.scac || !proNumber) return null;
  return `${carrier.scac.padEnd(4, '-')}${proNumber}`;
}

/**
 * The declared value sentence with its blanks filled: the template's first two runs of
 * underscores become the amount and the unit. A template text without blanks gets the sentence
 * appended, so the value is never lost.
 */
export function declaredValueText(legalText: string, declaredValue: Shipment['declaredValue']): string {
  if (!declaredValue) return legalText;
  const amount = formatCents(declaredValue.amountInCents);
  const unit = declaredValue.per === 'POUND' ? 'pound' : 'shipment';
  const blanks = legalText.match(/_{3,}/g) ?? [];
  if (blanks.length >= 2) return legalText.replace(/_{3,}/, amount).replace(/_{3,}/, unit);
  return `${legalText} The agreed or declared value of the property is specifically stated by the shipper to be not exceeding ${amount} per ${unit}.`;
}

/** The commodity description of a line: a hazardous line starts with its 49 CFR 172.202 basic description. */
export function commodityParagraphs(component: Pick<RatedOrderComponent, 'description'> & { hazmat?: Hazmat | null }): string[] {
  const parts: string[] = [];
  if (component.hazmat) parts.push(hazmatBasicDescription(component.hazmat));
  if (component.description) parts.push(component.description);
  return parts;
}

export interface BolPlaces {
  /** The shipper's IANA time zone: the cancellation date prints as a date there. */
  originTimeZone?: string | null;
}

export function layoutBol(shipment: Shipment, template: BolTemplateSpec, metrics: BolTextMetrics, places: BolPlaces = {}): BolLayout {
  const [pageWidth, pageHeight] = PAGE_SIZES[template.pageSize];
  const width = pageWidth - 2 * MARGIN;
  const ctx: Context = {
    shipment,
    template,
    metrics,
    pageWidth,
    pageHeight,
    left: MARGIN,
    right: pageWidth - MARGIN,
    width,
    referenceLine: referenceLine(shipment, template),
    places,
    totals: computeTotals(shipment.orderComponents),
    carrierColumns: placeColumns(CARRIER_COLUMNS, MARGIN, width),
    carrier: resolveCarrier(shipment, template),
    terms: resolveFreightTerms(shipment),
    hazardous: shipment.orderComponents.some((component) => component.hazmat),
  };

  const rows = shipment.orderComponents.map((component, index) => buildRow(ctx, component, index));
  const bottom = pageHeight - MARGIN;
  const footerHeight = drawFooter(ctx, new PageOps(pageHeight, metrics), 0);
  const totalsHeight = totalsRowHeight();

  // Pass 1: decide which rows go on which page. Page starts depend only on the page kind.
  const firstRowsTop = drawFirstPageHeader(ctx, new PageOps(pageHeight, metrics), 1, 1);
  const supplementRowsTop = drawSupplementHeader(ctx, new PageOps(pageHeight, metrics), 2, 2);
  type Slot = { kind: 'first' | 'supplement'; rows: BolRow[]; used: number };
  const slots: Slot[] = [{ kind: 'first', rows: [], used: 0 }];
  const capacity = (slot: Slot) => bottom - (slot.kind === 'first' ? firstRowsTop : supplementRowsTop);
  for (const row of rows) {
    let slot = slots[slots.length - 1]!;
    // An empty supplement page takes any row (no row is taller than a page); an empty first page
    // may be full with its header already when the addresses or instructions are long.
    if (slot.used + row.height > capacity(slot) && (slot.rows.length > 0 || slot.kind === 'first')) {
      slot = { kind: 'supplement', rows: [], used: 0 };
      slots.push(slot);
    }
    slot.rows.push(row);
    slot.used += row.height;
  }
  const last = slots[slots.length - 1]!;
  if (last.used + totalsHeight + footerHeight + 6 > capacity(last)) {
    // The totals and signatures must share the last page with at least one row where possible.
    const moved = last.rows.length >= 2 ? last.rows.pop() : undefined;
    if (moved) last.used -= moved.height;
    slots.push({ kind: 'supplement', rows: moved ? [moved] : [], used: moved?.height ?? 0 });
  }

  // Pass 2: draw, now that the page count is known.
  const pageCount = slots.length;
  const pages = slots.map((slot, index): BolPagePlan => {
    const page = new PageOps(pageHeight, metrics);
    const number = index + 1;
    let top = slot.kind === 'first' ? drawFirstPageHeader(ctx, page, number, pageCount) : drawSupplementHeader(ctx, page, number, pageCount);
    for (const row of slot.rows) top += drawRow(ctx, page, row, top);
    const hasTotals = index === pageCount - 1;
    if (hasTotals) {
      drawTotalsRow(ctx, page, top);
      top += totalsHeight;
      drawFooter(ctx, page, bottom - footerHeight);
    } else {
      page.text(`Continued on page ${number + 1}`, ctx.right, top + 3, SIZE.label, { align: 'right' });
    }
    if (shipment.orderStatus === 'CANCELLED') drawVoidStamp(ctx, page);
    return {
      number,
      kind: slot.kind,
      rows: slot.rows,
      hasTotals,
      tableBottomY: pageHeight - top,
      footerTopY: hasTotals ? pageHeight - (bottom - footerHeight) : null,
      ops: page.ops,
    };
  });

  return { pageWidth, pageHeight, referenceLine: ctx.referenceLine, totals: ctx.totals, pages };
}

function buildRow(ctx: Context, component: RatedOrderComponent, componentIndex: number): BolRow {
  const text = (value: string | null) => (value ? ctx.metrics.printable(oneLine(value)) : '');
  const values: Record<CarrierColumnKey, string> = {
    huQty: countFormat.format(component.palletCount),
    huType: HANDLING_UNIT_TYPE,
    pkgQty: component.pieceCount === null ? '' : countFormat.format(component.pieceCount),
    pkgType: text(component.packagingType),
    weight: formatWeight(component.poundsWeight),
    // 49 CFR 172.201(a)(1)(iii): an X in the column captioned HM, before the proper shipping name.
    hm: component.hazmat ? 'X' : '',
    description: '',
    nmfc: text(component.nmfcCode),
    freightClass: component.freightClass,
  };
  const cells = {} as Record<CarrierColumnKey, string[]>;
  let lineCount = 1;
  for (const column of ctx.carrierColumns) {
    const width = column.width - 2 * PAD;
    // The basic description (172.202(b): in sequence, nothing interspersed) on its own lines, then the commodity text.
    const lines =
      column.key === 'description'
        ? commodityParagraphs(component).flatMap((paragraph) => wrapText(text(paragraph), width, SIZE.cell, false, ctx.metrics))
        : wrapText(values[column.key], width, SIZE.cell, false, ctx.metrics);
    cells[column.key] = lines;
    lineCount = Math.max(lineCount, lines.length);
  }
  return { componentIndex, cells, height: lineCount * SIZE.cell * LINE_SPACING + 2 * PAD };
}

function drawRow(ctx: Context, page: PageOps, row: BolRow, top: number): number {
  for (const column of ctx.carrierColumns) {
    page.lines(row.cells[column.key], cellX(column), top + PAD, SIZE.cell, { align: column.align });
  }
  drawRowGrid(ctx, page, top, row.height);
  return row.height;
}

function drawRowGrid(ctx: Context, page: PageOps, top: number, height: number): void {
  for (const column of ctx.carrierColumns) page.vline(column.x, top, top + height);
  page.vline(ctx.right, top, top + height);
  page.hline(ctx.left, ctx.right, top + height);
}

function totalsRowHeight(): number {
  return SIZE.cell * LINE_SPACING + 2 * PAD + 1;
}

function drawTotalsRow(ctx: Context, page: PageOps, top: number): void {
  const height = totalsRowHeight();
  page.rect(ctx.left, top, ctx.width, height, { fill: 'headerFill' });
  const values: Partial<Record<CarrierColumnKey, string>> = {
    huQty: countFormat.format(ctx.totals.handlingUnits),
    pkgQty: ctx.totals.packages === null ? '' : countFormat.format(ctx.totals.packages),
    weight: formatWeight(ctx.totals.poundsWeight),
  };
  for (const column of ctx.carrierColumns) {
    const value = values[column.key];
    if (value) page.text(value, cellX(column), top + PAD, SIZE.cell, { bold: true, align: column.align, color: 'headerText' });
    if (column.key === 'description') {
      page.text('GRAND TOTAL', column.x + column.width - PAD, top + PAD, SIZE.cell, { bold: true, align: 'right', color: 'headerText' });
    }
  }
  drawRowGrid(ctx, page, top, height);
  page.hline(ctx.left, ctx.right, top, 1);
}

/** The carrier table's title bar and two-level column header; returns the height taken. */
function drawCarrierTableHeader(ctx: Context, page: PageOps, top: number, title: string): number {
  let y = top + drawEmergencyPhone(ctx, page, top);
  y += drawSectionBar(ctx, page, ctx.left, y, ctx.width, title);
  const rowHeight = SIZE.label * LINE_SPACING + 3;
  const height = 2 * rowHeight;
  page.rect(ctx.left, y, ctx.width, height, { fill: 'headerFill' });
  const columns = ctx.carrierColumns;
  for (let index = 0; index < columns.length; index++) {
    const column = columns[index]!;
    if (column.group === null) {
      const lines = wrapText(column.label, column.width - 2, SIZE.label, true, ctx.metrics);
      const textHeight = lines.length * page.lineHeight(SIZE.label);
      page.lines(lines, column.x + column.width / 2, y + (height - textHeight) / 2, SIZE.label, { bold: true, align: 'center', color: 'headerText' });
      page.vline(column.x, y, y + height);
      continue;
    }
    const previous = columns[index - 1];
    if (previous?.group !== column.group) {
      const span = columns.filter((other) => other.group === column.group).reduce((sum, other) => sum + other.width, 0);
      page.text(column.group, column.x + span / 2, y + 1.5, SIZE.label, { bold: true, align: 'center', color: 'headerText' });
      page.hline(column.x, column.x + span, y + rowHeight);
      page.vline(column.x, y, y + height);
    } else {
      page.vline(column.x, y + rowHeight, y + height);
    }
    page.text(column.label, column.x + column.width / 2, y + rowHeight + 1.5, SIZE.label, { bold: true, align: 'center', color: 'headerText' });
  }
  page.vline(ctx.right, y, y + height);
  page.hline(ctx.left, ctx.right, y + height);
  y += height;
  return y - top;
}

/**
 * 49 CFR 172.604(a)(3)(ii): one number for every hazardous line, "entered once on the shipping
 * paper in a clearly visible location and identified as an emergency response information
 * number". Printed over the carrier table of every page, so each sheet carries it. Returns the
 * height taken (0 for a shipment without hazardous material).
 */
function drawEmergencyPhone(ctx: Context, page: PageOps, top: number): number {
  if (!ctx.hazardous) return 0;
  const label = 'EMERGENCY RESPONSE TELEPHONE NUMBER (HAZARDOUS MATERIALS):';
  const x = ctx.left + PAD + 1;
  const labelWidth = ctx.metrics.widthOf(`${label} `, SIZE.emergency, true);
  const phone = ctx.shipment.emergencyContactPhone ? ctx.metrics.printable(oneLine(ctx.shipment.emergencyContactPhone)) : null;
  const lines = phone ? wrapText(phone, ctx.width - 2 * PAD - 2 - labelWidth, SIZE.emergency, true, ctx.metrics) : [];
  const height = Math.max(1, lines.length) * SIZE.emergency * LINE_SPACING + 2 * PAD;
  page.rect(ctx.left, top, ctx.width, height, { stroke: 'accent', thickness: 1.2 });
  page.text(label, x, top + PAD, SIZE.emergency, { bold: true });
  if (phone) page.lines(lines, x + labelWidth, top + PAD, SIZE.emergency, { bold: true });
  else page.hline(x + labelWidth, ctx.right - PAD, top + PAD + SIZE.emergency * LINE_SPACING, 0.4);
  return height + 4;
}

/** VOID across the page, with the cancellation date and reason under it. */
function drawVoidStamp(ctx: Context, page: PageOps): void {
  page.diagonalStamp('VOID', ctx.pageWidth, { share: 0.55 });
  const { cancelledAt, cancellationReason } = ctx.shipment;
  const when = cancelledAt ? ` ${placeDateOf(cancelledAt, ctx.places.originTimeZone)}` : '';
  const reason = cancellationReason ? `: ${oneLine(cancellationReason)}` : '';
  // Sized to 60 % of the diagonal like the stamp; a reason too long for 9 points is cut.
  const share = 0.6;
  const noteWidth = share * Math.hypot(ctx.pageWidth, ctx.pageHeight);
  const note = truncateToWidth(ctx.metrics.printable(`CANCELLED${when}${reason}`), noteWidth, 9, true, ctx.metrics);
  page.diagonalStamp(note, ctx.pageWidth, { share, maxSize: 16, offset: -110 });
  // The same as a plain line of text in the top margin: a search for VOID finds it in any viewer
  // or text extraction, which outlined, rotated stamp glyphs do not promise.
  const line = truncateToWidth(ctx.metrics.printable(`VOID: this bill of lading is cancelled${when ? ` (${when.trim()})` : ''}`), ctx.right - ctx.left, 8, true, ctx.metrics);
  page.text(line, ctx.pageWidth / 2, (MARGIN - 8 * LINE_SPACING) / 2, 8, { bold: true, color: 'stamp', align: 'center' });
}

/** A filled title bar (the VICS black band) with its label; returns its height. */
function drawSectionBar(ctx: Context, page: PageOps, x: number, top: number, width: number, label: string): number {
  page.rect(x, top, width, BOX_BAR, { fill: 'accent' });
  page.text(label, x + width / 2, top + (BOX_BAR - SIZE.label * LINE_SPACING) / 2, SIZE.label, { bold: true, color: 'headerFill', align: 'center' });
  return BOX_BAR;
}

// ---------------------------------------------------------------------------------------------
// Page headers

/** Logo or brand, title, date and "Page N of M"; returns the top of what follows. */
function drawBand(ctx: Context, page: PageOps, number: number, pageCount: number, subtitle: string | null): number {
  const { template, shipment, metrics } = ctx;
  const top = MARGIN;
  let bandHeight = 30;
  if (template.logo) {
    bandHeight = Math.max(bandHeight, template.logo.height);
    page.image('logo', ctx.left, top, template.logo.width, template.logo.height);
  } else if (template.brandName) {
    page.text(metrics.printable(template.brandName), ctx.left, top + 2, 10, { bold: true, color: 'accent' });
  }
  const titleTop = top + (bandHeight - SIZE.title * LINE_SPACING - (subtitle ? 8 : 0)) / 2;
  page.text('BILL OF LADING', ctx.pageWidth / 2, titleTop, SIZE.title, { bold: true, color: 'accent', align: 'center' });
  if (subtitle) page.text(subtitle, ctx.pageWidth / 2, titleTop + SIZE.title * LINE_SPACING, SIZE.body, { bold: true, align: 'center' });
  page.text(`Date: ${shipment.requiredPickupDate}`, ctx.right, top + 4, SIZE.body, { align: 'right' });
  page.text(`Page ${number} of ${pageCount}`, ctx.right, top + 4 + SIZE.body * LINE_SPACING, SIZE.body, { bold: true, align: 'right' });
  page.hline(ctx.left, ctx.right, top + bandHeight + 3, 1.5, 'accent');
  return top + bandHeight + 7;
}

interface BoxContent {
  label: string;
  /** Draws the content at `top` inside [x, x + width]; returns its height. */
  draw(page: PageOps, x: number, top: number, width: number): number;
}

/** Boxes stacked in one column; the last one is stretched to `minHeight` in total. Returns the height. */
function drawColumn(ctx: Context, page: PageOps, x: number, top: number, width: number, boxes: readonly BoxContent[], minHeight = 0): number {
  let y = top;
  boxes.forEach((box, index) => {
    const barHeight = drawSectionBar(ctx, page, x, y, width, box.label);
    let contentHeight = box.draw(page, x + PAD + 1, y + barHeight + PAD, width - 2 * PAD - 2) + 2 * PAD;
    if (index === boxes.length - 1) contentHeight = Math.max(contentHeight, minHeight - (y - top) - barHeight);
    page.rect(x, y, width, barHeight + contentHeight, { stroke: 'rule' });
    y += barHeight + contentHeight;
  });
  return y - top;
}

function addressLines(ctx: Context, address: Shipment['pickupAddress']): string[] {
  const p = (text: string) => ctx.metrics.printable(oneLine(text));
  const lines = [p(address.address1)];
  if (address.address2) lines.push(p(address.address2));
  lines.push(p(`${address.city}, ${address.state} ${address.zipCode}`));
  // Joined after collapsing, so the gap between the two survives.
  const contact = [address.contactPerson ? p(`Contact: ${address.contactPerson}`) : '', address.phoneNumber ? p(`Phone: ${address.phoneNumber}`) : '']
    .filter(Boolean)
    .join('\u2002\u2002');
  if (contact) lines.push(contact);
  return lines;
}

/** An address as lines of text: street, city line, contact and phone (for the third-party bill-to). */
function addressTextLines(address: Address): string[] {
  const lines = [address.address1];
  if (address.address2) lines.push(address.address2);
  lines.push(`${address.city}, ${address.state} ${address.zipCode}`);
  if (address.contactPerson) lines.push(`Contact: ${address.contactPerson}`);
  if (address.phoneNumber) lines.push(`Phone: ${address.phoneNumber}`);
  return lines;
}

interface SlotOptions {
  /** The value's size (the label stays body size, on the same baseline). */
  valueSize?: number;
  /** Long values shrink down to this size (default: body size) to fit `maxLines` (default 1) before they wrap further. */
  minSize?: number;
  maxLines?: number;
  valueBold?: boolean;
  /** An FOB tick box at the right end of the slot's first line (VICS: on the SID# and CID# lines). */
  fob?: boolean;
}

/** `Label: value`, or `Label:` and a rule to write on when the value is unknown. Returns the height taken. */
function drawSlot(ctx: Context, page: PageOps, x: number, top: number, width: number, label: string, value: string | null, options: SlotOptions = {}): number {
  const { metrics } = ctx;
  const labelWidth = metrics.widthOf(`${label} `, SIZE.body, true);
  let valueWidth = width - labelWidth;
  if (options.fob !== undefined) {
    const fobWidth = metrics.widthOf('FOB: ', SIZE.body, true) + SIZE.body + 1;
    valueWidth -= fobWidth + 6;
    const fobX = x + width - fobWidth;
    page.text('FOB:', fobX, top, SIZE.body, { bold: true });
    page.checkbox(fobX + metrics.widthOf('FOB: ', SIZE.body, true), top, '', options.fob, SIZE.body);
  }
  if (value) {
    const { lines, size } = fitText(
      metrics.printable(oneLine(value)),
      valueWidth,
      options.maxLines ?? 1,
      options.valueSize ?? SIZE.body,
      options.minSize ?? SIZE.body,
      options.valueBold ?? false,
      metrics,
    );
    // Label and the first value line share a baseline.
    page.text(label, x, top + (size - SIZE.body) * BASELINE, SIZE.body, { bold: true });
    return page.lines(lines, x + labelWidth, top, size, { bold: options.valueBold ?? false });
  }
  page.text(label, x, top, SIZE.body, { bold: true });
  page.hline(x + labelWidth, x + labelWidth + valueWidth, top + SIZE.body * LINE_SPACING, 0.4);
  return page.lineHeight(SIZE.body) + 1.5;
}

function addressBox(ctx: Context, label: string, address: Shipment['pickupAddress'], slots: Array<[string, string | null, SlotOptions?]>): BoxContent {
  return {
    label,
    draw(page, x, top, width) {
      let y = top;
      y += page.lines(wrapText(ctx.metrics.printable(oneLine(address.name)), width, SIZE.body, true, ctx.metrics), x, y, SIZE.body, { bold: true });
      for (const line of addressLines(ctx, address)) {
        y += page.lines(wrapText(line, width, SIZE.body, false, ctx.metrics), x, y, SIZE.body);
      }
      for (const [slotLabel, value, options] of slots) y += drawSlot(ctx, page, x, y, width, slotLabel, value, options);
      return y - top;
    },
  };
}

function drawFirstPageHeader(ctx: Context, page: PageOps, number: number, pageCount: number): number {
  const { shipment, metrics } = ctx;
  let top = drawBand(ctx, page, number, pageCount, null);

  const leftWidth = Math.round(ctx.width * 0.54);
  const rightWidth = ctx.width - leftWidth;
  const rightX = ctx.left + leftWidth;
  /** Lines the special instructions may take: fewer when the addresses leave page 1 no more room. */
  let instructionLines = SPECIAL_INSTRUCTIONS_MAX_LINES;

  const thirdParty: BoxContent = {
    label: 'THIRD PARTY FREIGHT CHARGES BILL TO',
    draw(p, x, y0, width) {
      let y = y0;
      const billTo = ctx.terms.billTo;
      if (billTo) {
        y += p.lines(wrapText(metrics.printable(oneLine(billTo.name)), width, SIZE.body, true, metrics), x, y, SIZE.body, { bold: true });
        for (const line of billTo.lines) y += p.lines(wrapText(metrics.printable(oneLine(line)), width, SIZE.body, false, metrics), x, y, SIZE.body);
      } else {
        for (const slot of ['Name:', 'Address:', 'City/State/Zip:']) y += drawSlot(ctx, p, x, y, width, slot, null);
      }
      return y - y0;
    },
  };
  const special: BoxContent = {
    label: 'SPECIAL INSTRUCTIONS',
    draw(p, x, y0, width) {
      let y = y0;
      if (shipment.pickupWindow) {
        // VICS has no field for the dock hours: they head the special instructions.
        const { readyTime, closeTime } = shipment.pickupWindow;
        const text = metrics.printable(`Pickup window: ready ${readyTime}, dock closes ${closeTime} (local time at ship from)`);
        y += p.lines(wrapText(text, width, SIZE.body, true, metrics), x, y, SIZE.body, { bold: true });
      }
      if (shipment.accessorials.length > 0) {
        const text = metrics.printable(`Accessorials: ${shipment.accessorials.map(humanizeAccessorial).join(', ')}`);
        y += p.lines(wrapText(text, width, SIZE.body, true, metrics), x, y, SIZE.body, { bold: true });
      }
      if (shipment.specialInstructions) {
        // Long instructions shrink before they are cut, so that page 1 keeps room for the table.
        const wrapAt = (size: number) =>
          paragraphs(shipment.specialInstructions ?? '').flatMap((paragraph) => (paragraph ? wrapText(metrics.printable(paragraph), width, size, false, metrics) : ['']));
        let size: number = SIZE.body;
        let lines = wrapAt(size);
        if (lines.length > 10) {
          size = SIZE.legal;
          lines = wrapAt(size);
        }
        y += p.lines(clampLines(lines, instructionLines, width, size, metrics), x, y, size);
      }
      return Math.max(y - y0, 2 * p.lineHeight(SIZE.body));
    },
  };
  const leftBoxes = [
    addressBox(ctx, 'SHIP FROM', shipment.pickupAddress, [['SID#:', shipment.id, { fob: shipment.fob === 'ORIGIN' }]]),
    addressBox(ctx, 'SHIP TO', shipment.deliveryAddress, [
      ['Location #:', null],
      ['CID#:', null, { fob: shipment.fob === 'DESTINATION' }],
    ]),
    thirdParty,
    special,
  ];

  const bolBox: BoxContent = {
    label: 'BILL OF LADING NUMBER',
    draw(p, x, y0, width) {
      let y = y0;
      p.text(shipment.bolNumber, x + width / 2, y, SIZE.bolNumber, { bold: true, align: 'center' });
      y += SIZE.bolNumber * LINE_SPACING + 2;
      p.barcode('gs1-128', bolBarcodeData(shipment.bolNumber), BOL_BARCODE_MODULES, x + (width - BARCODE_BOX.width) / 2, y, BARCODE_BOX.width, BARCODE_BOX.height);
      y += BARCODE_BOX.height + 1;
      p.text(`(402) ${shipment.bolNumber}`, x + width / 2, y, SIZE.label, { align: 'center' });
      return y + p.lineHeight(SIZE.label) - y0;
    },
  };
  const carrierBox: BoxContent = {
    label: 'CARRIER',
    draw(p, x, y0, width) {
      // The VICS order: carrier name, trailer, seals, SCAC, PRO, then the bar code space.
      let y = y0;
      y += drawSlot(ctx, p, x, y, width, 'Carrier name:', ctx.carrier.name, { maxLines: 2, minSize: SIZE.label });
      y += drawSlot(ctx, p, x, y, width, 'Trailer number:', shipment.trailerNumber, { minSize: SIZE.label });
      y += drawSlot(ctx, p, x, y, width, 'Seal number(s):', shipment.sealNumbers.length > 0 ? shipment.sealNumbers.join(', ') : null, { maxLines: 3, minSize: SIZE.legal });
      y += drawSlot(ctx, p, x, y, width, 'SCAC:', ctx.carrier.scac, { valueSize: SIZE.scacPro, valueBold: true });
      y += drawSlot(ctx, p, x, y, width, 'Pro number:', shipment.proNumber, { valueSize: SIZE.scacPro, valueBold: true });
      const barcodeData = scacProBarcodeData(ctx.carrier, shipment.proNumber);
      if (barcodeData) {
        y += 2;
        p.barcode('code128', barcodeData, null, x + (width - PRO_BARCODE_BOX.width) / 2, y, PRO_BARCODE_BOX.width, PRO_BARCODE_BOX.height);
        y += PRO_BARCODE_BOX.height + 1;
        p.text(barcodeData, x + width / 2, y, SIZE.label, { align: 'center' });
        y += p.lineHeight(SIZE.label);
      }
      return y - y0;
    },
  };
  const termsBox: BoxContent = {
    label: 'FREIGHT CHARGE TERMS',
    draw(p, x, y0, width) {
      let y = y0;
      y += p.lines(wrapText('Freight charges are prepaid unless marked otherwise.', width, SIZE.label, false, metrics), x, y, SIZE.label);
      y += 1;
      let checkX = x;
      const terms: Array<[string, string]> = [
        ['prepaid', 'Prepaid'],
        ['collect', 'Collect'],
        ['third-party', '3rd Party'],
      ];
      for (const [term, label] of terms) checkX += p.checkbox(checkX, y, label, ctx.terms.terms === term, SIZE.body) + 12;
      y += p.lineHeight(SIZE.body) + 3;
      y += drawSlot(ctx, p, x, y, width, 'Pickup date:', shipment.requiredPickupDate);
      y += 1;
      p.checkbox(x, y, 'Master Bill of Lading: with attached underlying Bills of Lading', shipment.masterBol, SIZE.label);
      y += p.lineHeight(SIZE.label) + 2;
      return y - y0;
    },
  };
  const rightBoxes = [bolBox, carrierBox, termsBox];

  // Draw both columns once to learn their heights, then again stretched to the taller one. The
  // header, the order table and the carrier table's head must fit page 1 (rows may move on): with
  // the longest addresses the special instructions give up lines, down to one.
  const scratch = new PageOps(ctx.pageHeight, metrics);
  const tablesHeight = drawCustomerOrderTable(ctx, scratch, 0) + 5 + drawCarrierTableHeader(ctx, scratch, 0, 'CARRIER INFORMATION');
  let sectionHeight: number;
  for (;;) {
    const leftHeight = drawColumn(ctx, scratch, ctx.left, top, leftWidth, leftBoxes);
    const rightHeight = drawColumn(ctx, scratch, rightX, top, rightWidth, rightBoxes);
    sectionHeight = Math.max(leftHeight, rightHeight);
    if (top + sectionHeight + 5 + tablesHeight <= ctx.pageHeight - MARGIN || instructionLines <= 1) break;
    instructionLines--;
  }
  drawColumn(ctx, page, ctx.left, top, leftWidth, leftBoxes, sectionHeight);
  drawColumn(ctx, page, rightX, top, rightWidth, rightBoxes, sectionHeight);
  top += sectionHeight + 5;

  top += drawCustomerOrderTable(ctx, page, top) + 5;
  top += drawCarrierTableHeader(ctx, page, top, 'CARRIER INFORMATION');
  return top;
}

function drawSupplementHeader(ctx: Context, page: PageOps, number: number, pageCount: number): number {
  const { shipment, metrics } = ctx;
  let top = drawBand(ctx, page, number, pageCount, 'SUPPLEMENT PAGE');
  const x = ctx.left + PAD + 1;
  const textWidth = ctx.width - BARCODE_BOX.width - 4 * PAD - 24;
  const summary = [
    `Customer order: ${ctx.referenceLine}`,
    `Ship from: ${oneLine(shipment.pickupAddress.name)}, ${shipment.pickupAddress.city}, ${shipment.pickupAddress.state}`,
    `Ship to: ${oneLine(shipment.deliveryAddress.name)}, ${shipment.deliveryAddress.city}, ${shipment.deliveryAddress.state}`,
    ...(ctx.carrier.scac || shipment.proNumber ? [`Carrier: ${[ctx.carrier.scac, shipment.proNumber ? `PRO ${shipment.proNumber}` : null].filter(Boolean).join(', ')}`] : []),
  ].map((line) => truncateToWidth(metrics.printable(line), textWidth, SIZE.body, false, metrics));
  const textHeight = SIZE.bolNumber * LINE_SPACING + 1 + summary.length * SIZE.body * LINE_SPACING;
  const boxHeight = Math.max(BARCODE_BOX.height + SIZE.label * LINE_SPACING + 1, textHeight) + 2 * PAD;
  page.rect(ctx.left, top, ctx.width, boxHeight, { stroke: 'rule' });
  let y = top + PAD;
  page.text('Bill of lading number:', x, y + 2.5, SIZE.body, { bold: true });
  page.text(shipment.bolNumber, x + metrics.widthOf('Bill of lading number: ', SIZE.body, true), y, SIZE.bolNumber, { bold: true });
  y += SIZE.bolNumber * LINE_SPACING + 1;
  page.lines(summary, x, y, SIZE.body);
  const barcodeX = ctx.right - PAD - 8 - BARCODE_BOX.width;
  page.barcode('gs1-128', bolBarcodeData(shipment.bolNumber), BOL_BARCODE_MODULES, barcodeX, top + PAD, BARCODE_BOX.width, BARCODE_BOX.height);
  page.text(`(402) ${shipment.bolNumber}`, barcodeX + BARCODE_BOX.width / 2, top + PAD + BARCODE_BOX.height + 1, SIZE.label, { align: 'center' });
  top += boxHeight + 5;
  top += drawCarrierTableHeader(ctx, page, top, 'CARRIER INFORMATION (CONTINUED)');
  return top;
}

// ---------------------------------------------------------------------------------------------
// Customer order information

type OrderColumnKey = 'order' | 'packages' | 'weight' | 'palletYes' | 'palletNo' | 'info';

const ORDER_COLUMNS: readonly Column<OrderColumnKey>[] = [
  { key: 'order', group: null, label: 'CUSTOMER ORDER NUMBER', width: 190, align: 'left' },
  { key: 'packages', group: null, label: '# PKGS', width: 46, align: 'center' },
  { key: 'weight', group: null, label: 'WEIGHT (LB)', width: 60, align: 'right' },
  { key: 'palletYes', group: 'PALLET/SLIP (CIRCLE ONE)', label: 'Y', width: 50, align: 'center' },
  { key: 'palletNo', group: 'PALLET/SLIP (CIRCLE ONE)', label: 'N', width: 50, align: 'center' },
  { key: 'info', group: null, label: 'ADDITIONAL SHIPPER INFO', width: 0, align: 'left' },
];

function drawCustomerOrderTable(ctx: Context, page: PageOps, top: number): number {
  const { metrics, shipment, template } = ctx;
  const columns = placeColumns(ORDER_COLUMNS, ctx.left, ctx.width);
  let y = top + drawSectionBar(ctx, page, ctx.left, top, ctx.width, 'CUSTOMER ORDER INFORMATION');

  const headerRow = SIZE.label * LINE_SPACING + 3;
  page.rect(ctx.left, y, ctx.width, 2 * headerRow, { fill: 'headerFill' });
  for (const column of columns) {
    if (column.group === null) {
      page.text(column.label, column.x + column.width / 2, y + headerRow / 2 + 1.5, SIZE.label, { bold: true, align: 'center', color: 'headerText' });
      page.vline(column.x, y, y + 2 * headerRow);
    } else if (column.key === 'palletYes') {
      page.text(column.group, column.x + column.width, y + 1.5, SIZE.label, { bold: true, align: 'center', color: 'headerText' });
      page.hline(column.x, column.x + 2 * column.width, y + headerRow);
      page.vline(column.x, y, y + 2 * headerRow);
      page.text(column.label, column.x + column.width / 2, y + headerRow + 1.5, SIZE.label, { bold: true, align: 'center', color: 'headerText' });
    } else {
      page.vline(column.x, y + headerRow, y + 2 * headerRow);
      page.text(column.label, column.x + column.width / 2, y + headerRow + 1.5, SIZE.label, { bold: true, align: 'center', color: 'headerText' });
    }
  }
  page.vline(ctx.right, y, y + 2 * headerRow);
  page.hline(ctx.left, ctx.right, y + 2 * headerRow);
  y += 2 * headerRow;

  // With the customer's reference in the order cell, the standard layout keeps our order number beside it.
  const refNumber = shipment.refNumber?.trim();
  const info = template.referenceFormat === 'order-number' && refNumber ? `Order: ${shipment.orderNumber}` : '';
  const packages = ctx.totals.packages === null ? '' : countFormat.format(ctx.totals.packages);
  const weight = formatWeight(ctx.totals.poundsWeight);
  const orderRow: Record<OrderColumnKey, string> = {
    order: metrics.printable(oneLine(ctx.referenceLine)),
    packages,
    weight,
    // Every handling unit is a pallet (the carrier table's "Pallets"): the order ships on pallets.
    palletYes: PALLET_MARK,
    palletNo: '',
    info: info ? metrics.printable(oneLine(info)) : '',
  };
  const cells = columns.map((column) => wrapText(orderRow[column.key], column.width - 2 * PAD, SIZE.cell, column.key === 'order', metrics));
  const rowHeight = Math.max(1, ...cells.map((lines) => lines.length)) * SIZE.cell * LINE_SPACING + 2 * PAD;
  columns.forEach((column, index) => {
    page.lines(cells[index] ?? [], cellX(column), y + PAD, SIZE.cell, { align: column.align, bold: column.key === 'order' });
    page.vline(column.x, y, y + rowHeight);
  });
  page.vline(ctx.right, y, y + rowHeight);
  page.hline(ctx.left, ctx.right, y + rowHeight);
  y += rowHeight;

  const totalHeight = totalsRowHeight();
  page.rect(ctx.left, y, ctx.width, totalHeight, { fill: 'headerFill' });
  const [orderColumn, packagesColumn, weightColumn] = columns;
  if (orderColumn && packagesColumn && weightColumn) {
    page.text('GRAND TOTAL', orderColumn.x + orderColumn.width - PAD, y + PAD, SIZE.cell, { bold: true, align: 'right', color: 'headerText' });
    page.text(packages, cellX(packagesColumn), y + PAD, SIZE.cell, { bold: true, align: 'center', color: 'headerText' });
    page.text(weight, cellX(weightColumn), y + PAD, SIZE.cell, { bold: true, align: 'right', color: 'headerText' });
  }
  for (const column of columns) page.vline(column.x, y, y + totalHeight);
  page.rect(ctx.left, top, ctx.width, y + totalHeight - top, { stroke: 'rule' });
  y += totalHeight;
  return y - top;
}

// ---------------------------------------------------------------------------------------------
// Declared value, COD, liability notice and signatures (last page)

function drawFooter(ctx: Context, page: PageOps, top: number): number {
  const { metrics, template } = ctx;
  const legal = template.legalText;
  const p = (text: string) => metrics.printable(oneLine(text));
  let y = top;

  // Declared value | COD
  const leftWidth = Math.round(ctx.width * 0.6);
  const rightWidth = ctx.width - leftWidth;
  const declared = wrapText(p(declaredValueText(legal.declaredValue, ctx.shipment.declaredValue)), leftWidth - 2 * PAD - 2, SIZE.legal, false, metrics);
  const declaredHeight = declared.length * SIZE.legal * LINE_SPACING;
  const codStep = SIZE.body * LINE_SPACING + 3;
  const codHeight = 3 * codStep;
  const rowOne = Math.max(declaredHeight, codHeight) + 2 * PAD;
  page.rect(ctx.left, y, leftWidth, rowOne, { stroke: 'rule' });
  page.rect(ctx.left + leftWidth, y, rightWidth, rowOne, { stroke: 'rule' });
  page.lines(declared, ctx.left + PAD + 1, y + PAD, SIZE.legal);
  const codX = ctx.left + leftWidth + PAD + 1;
  const cod = ctx.shipment.cod;
  drawSlot(ctx, page, codX, y + PAD, rightWidth - 2 * PAD - 2, cod ? 'COD Amount:' : 'COD Amount: $', cod ? formatCents(cod.amountInCents) : null, { valueBold: true });
  const feeTop = y + PAD + codStep;
  page.text('Fee terms:', codX, feeTop, SIZE.body, { bold: true });
  let checkX = codX + metrics.widthOf('Fee terms: ', SIZE.body, true);
  checkX += page.checkbox(checkX, feeTop, 'Collect', cod?.feeTerms === 'COLLECT', SIZE.body) + 10;
  page.checkbox(checkX, feeTop, 'Prepaid', cod?.feeTerms === 'PREPAID', SIZE.body);
  page.checkbox(codX, feeTop + codStep, 'Customer check acceptable', cod?.customerCheckAcceptable ?? false, SIZE.body);
  y += rowOne;

  // Liability limitation notice, full width
  const notice = wrapText(p(legal.liabilityNotice), ctx.width - 2 * PAD - 2, SIZE.notice, true, metrics);
  const noticeHeight = notice.length * SIZE.notice * LINE_SPACING + 2 * PAD;
  page.rect(ctx.left, y, ctx.width, noticeHeight, { stroke: 'rule' });
  page.lines(notice, ctx.left + PAD + 1, y + PAD, SIZE.notice, { bold: true, color: 'accent' });
  y += noticeHeight;

  // Received clause | delivery without payment + shipper signature
  const received = wrapText(p(legal.received), leftWidth - 2 * PAD - 2, SIZE.legal, false, metrics);
  const withoutPayment = wrapText(p(legal.deliveryWithoutPayment), rightWidth - 2 * PAD - 2, SIZE.legal, false, metrics);
  const rowThree = Math.max(received.length * SIZE.legal * LINE_SPACING, withoutPayment.length * SIZE.legal * LINE_SPACING + 16) + 2 * PAD;
  page.rect(ctx.left, y, leftWidth, rowThree, { stroke: 'rule' });
  page.rect(ctx.left + leftWidth, y, rightWidth, rowThree, { stroke: 'rule' });
  page.lines(received, ctx.left + PAD + 1, y + PAD, SIZE.legal);
  page.lines(withoutPayment, codX, y + PAD, SIZE.legal);
  drawSlot(ctx, page, codX, y + rowThree - PAD - SIZE.body * LINE_SPACING - 2, rightWidth - 2 * PAD - 2, 'Shipper signature:', null);
  y += rowThree;

  // Shipper signature | trailer loaded | freight counted | carrier signature
  const widths = [0.3, 0.17, 0.23, 0.3].map((share) => share * ctx.width);
  const [shipperWidth = 0, loadedWidth = 0, countedWidth = 0, carrierWidth = 0] = widths;
  const inner = (width: number) => width - 2 * PAD - 2;
  const shipperText = wrapText(p(legal.shipperCertification), inner(shipperWidth), SIZE.legal, false, metrics);
  const carrierText = wrapText(p(legal.carrierCertification), inner(carrierWidth), SIZE.legal, false, metrics);
  const signatureSpace = 22;
  const textHeight = Math.max(shipperText.length, carrierText.length) * SIZE.legal * LINE_SPACING;
  const rowFour = BOX_BAR + PAD + Math.max(textHeight + signatureSpace, 4 * (SIZE.body * LINE_SPACING + 3)) + PAD;
  const boxes: Array<[string, number]> = [
    ['SHIPPER SIGNATURE / DATE', shipperWidth],
    ['TRAILER LOADED', loadedWidth],
    ['FREIGHT COUNTED', countedWidth],
    ['CARRIER SIGNATURE / PICKUP DATE', carrierWidth],
  ];
  let x = ctx.left;
  const contentTop = y + BOX_BAR + PAD;
  for (const [label, width] of boxes) {
    drawSectionBar(ctx, page, x, y, width, label);
    page.rect(x, y, width, rowFour, { stroke: 'rule' });
    x += width;
  }
  x = ctx.left + PAD + 1;
  page.lines(shipperText, x, contentTop, SIZE.legal);
  page.hline(x, x + inner(shipperWidth), y + rowFour - PAD - 4, 0.5, 'text');
  x = ctx.left + shipperWidth + PAD + 1;
  const step = SIZE.body * LINE_SPACING + 3;
  page.checkbox(x, contentTop, 'By shipper', false, SIZE.body);
  page.checkbox(x, contentTop + step, 'By driver', false, SIZE.body);
  x = ctx.left + shipperWidth + loadedWidth + PAD + 1;
  page.checkbox(x, contentTop, 'By shipper', false, SIZE.body);
  page.checkbox(x, contentTop + step, 'By driver/pallets said to contain', false, SIZE.legal);
  page.checkbox(x, contentTop + 2 * step, 'By driver/pieces', false, SIZE.body);
  x = ctx.left + shipperWidth + loadedWidth + countedWidth + PAD + 1;
  page.lines(carrierText, x, contentTop, SIZE.legal);
  page.hline(x, x + inner(carrierWidth), y + rowFour - PAD - 4, 0.5, 'text');
  y += rowFour;
  return y - top;
}
