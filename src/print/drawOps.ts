/**
 * What the printed documents (Bill of Lading, pallet labels) are made of, PURE: drawing operations
 * in PDF coordinates (points, origin bottom-left) that a page plan produces and an adapter executes
 * (pdf-lib for PDF, the ZPL writer for thermal printers). Layouts work top-down through `PageOps`.
 */

/** What a layout needs to know about the font; the adapters implement it with the embedded font. */
export interface TextMetrics {
  /** Width in points of text already made printable. Widths must add up (no kerning). */
  widthOf(text: string, size: number, bold: boolean): number;
  /** The text as the font can print it: characters without a glyph replaced by a visible mark. */
  printable(text: string): string;
}

/** Colours by role; each document maps them to its palette. `stamp` is the VOID stamp's red. */
export type ColorRole = 'text' | 'accent' | 'headerFill' | 'headerText' | 'rule' | 'stamp';

/**
 * `gs1-128`: data in bracketed GS1 notation, `(00)106141411234567897`. `code128`: plain text,
 * printable ASCII.
 */
export type BarcodeSymbology = 'gs1-128' | 'code128';

export type TextAlign = 'left' | 'center' | 'right';

export type DrawOp =
  | {
      kind: 'text';
      text: string;
      /** Left end of the baseline, already aligned with the PDF font's widths. */
      x: number;
      y: number;
      size: number;
      bold: boolean;
      color: ColorRole;
      /** The box the text was aligned in, for adapters whose font differs (ZPL aligns again in it). */
      box?: { left: number; width: number; align: TextAlign };
    }
  | { kind: 'line'; x1: number; y1: number; x2: number; y2: number; thickness: number; color: ColorRole }
  | {
      kind: 'rect';
      x: number;
      y: number;
      width: number;
      height: number;
      fill: ColorRole | null;
      stroke: ColorRole | null;
      thickness: number;
    }
  | { kind: 'image'; image: 'logo'; x: number; y: number; width: number; height: number }
  /** Bars only (no text, no quiet zone) stretched into the box; `modules`: the symbol's width in modules, when the layout knows it. */
  | { kind: 'barcode'; symbology: BarcodeSymbology; data: string; modules: number | null; x: number; y: number; width: number; height: number }
  /** Large outlined text over the page, rotated `angle` degrees counter-clockwise about (x, y), its baseline start. */
  | { kind: 'stamp'; text: string; x: number; y: number; size: number; angle: number; color: ColorRole };

export const LINE_SPACING = 1.2;
/** Baseline below a line's top, as a share of the font size: centres capitals in the line box. */
export const BASELINE = 0.93;
/** Height of capitals as a share of the font size (DejaVu Sans: 0.729 em). */
export const CAP_HEIGHT = 0.73;

/** Coordinates to 1/100 pt: plenty for print, and shorter numbers in the content stream. */
export const round = (value: number) => Math.round(value * 100) / 100;

/** A page's operations, drawn with top-down coordinates and stored in PDF coordinates. */
export class PageOps {
  readonly ops: DrawOp[] = [];
  constructor(
    readonly pageHeight: number,
    private readonly metrics: TextMetrics,
  ) {}

  lineHeight(size: number): number {
    return size * LINE_SPACING;
  }

  /**
   * Text whose line box starts at `top`; `align` positions it against x (left edge, centre or
   * right edge). With `boxWidth`, the box it is aligned in is recorded for other adapters.
   */
  text(text: string, x: number, top: number, size: number, options: { bold?: boolean; color?: ColorRole; align?: TextAlign; boxWidth?: number } = {}): void {
    if (!text) return;
    const bold = options.bold ?? false;
    const align = options.align ?? 'left';
    let left = x;
    if (align !== 'left') {
      const width = this.metrics.widthOf(text, size, bold);
      left = align === 'center' ? x - width / 2 : x - width;
    }
    const op: DrawOp = { kind: 'text', text, x: round(left), y: round(this.pageHeight - (top + size * BASELINE)), size, bold, color: options.color ?? 'text' };
    if (options.boxWidth !== undefined) {
      const boxLeft = align === 'center' ? x - options.boxWidth / 2 : align === 'right' ? x - options.boxWidth : x;
      op.box = { left: round(boxLeft), width: round(options.boxWidth), align };
    }
    this.ops.push(op);
  }

  /** Several lines one under the other; returns the height they take. */
  lines(lines: readonly string[], x: number, top: number, size: number, options: { bold?: boolean; color?: ColorRole; align?: TextAlign; boxWidth?: number } = {}): number {
    const step = this.lineHeight(size);
    lines.forEach((line, index) => this.text(line, x, top + index * step, size, options));
    return lines.length * step;
  }

  hline(x1: number, x2: number, top: number, thickness = 0.5, color: ColorRole = 'rule'): void {
    const y = round(this.pageHeight - top);
    this.ops.push({ kind: 'line', x1: round(x1), y1: y, x2: round(x2), y2: y, thickness, color });
  }

  vline(x: number, top: number, bottom: number, thickness = 0.5, color: ColorRole = 'rule'): void {
    this.ops.push({ kind: 'line', x1: round(x), y1: round(this.pageHeight - top), x2: round(x), y2: round(this.pageHeight - bottom), thickness, color });
  }

  rect(x: number, top: number, width: number, height: number, style: { fill?: ColorRole; stroke?: ColorRole; thickness?: number }): void {
    this.ops.push({
      kind: 'rect',
      x: round(x),
      y: round(this.pageHeight - top - height),
      width: round(width),
      height: round(height),
      fill: style.fill ?? null,
      stroke: style.stroke ?? null,
      thickness: style.thickness ?? 0.75,
    });
  }

  image(image: 'logo', x: number, top: number, width: number, height: number): void {
    this.ops.push({ kind: 'image', image, x: round(x), y: round(this.pageHeight - top - height), width: round(width), height: round(height) });
  }

  barcode(symbology: BarcodeSymbology, data: string, modules: number | null, x: number, top: number, width: number, height: number): void {
    this.ops.push({ kind: 'barcode', symbology, data, modules, x: round(x), y: round(this.pageHeight - top - height), width: round(width), height: round(height) });
  }

  /** A square tick box followed by its label; returns the width taken. */
  checkbox(x: number, top: number, label: string, checked: boolean, size: number): number {
    const side = size + 1;
    const boxTop = top + (this.lineHeight(size) - side) / 2;
    this.rect(x, boxTop, side, side, { stroke: 'text', thickness: 0.6 });
    if (checked) {
      const y1 = this.pageHeight - boxTop;
      const y2 = y1 - side;
      this.ops.push({ kind: 'line', x1: round(x + 1.2), y1: round(y1 - 1.2), x2: round(x + side - 1.2), y2: round(y2 + 1.2), thickness: 1, color: 'text' });
      this.ops.push({ kind: 'line', x1: round(x + 1.2), y1: round(y2 + 1.2), x2: round(x + side - 1.2), y2: round(y1 - 1.2), thickness: 1, color: 'text' });
    }
    this.text(label, x + side + 2.5, top, size);
    return side + 2.5 + this.metrics.widthOf(label, size, false);
  }

  /**
   * `text` in bold along the page's rising diagonal, centred on the page and as wide as `share` of
   * the diagonal (at most `maxSize` points), moved `offset` points across the diagonal (positive:
   * towards the top left): a stamp nobody can miss, outlined so that the page stays readable.
   */
  diagonalStamp(text: string, pageWidth: number, options: { share: number; maxSize?: number; offset?: number }): void {
    const angle = Math.atan2(this.pageHeight, pageWidth);
    const diagonal = Math.hypot(pageWidth, this.pageHeight);
    const size = Math.min((options.share * diagonal) / (this.metrics.widthOf(text, 1, true) || 1), options.maxSize ?? Number.POSITIVE_INFINITY);
    const width = this.metrics.widthOf(text, size, true);
    const capHeight = CAP_HEIGHT * size;
    const [cos, sin] = [Math.cos(angle), Math.sin(angle)];
    // From the page centre (moved across by `offset`) back half the text's width along the
    // baseline, and down half the capitals.
    const centreX = pageWidth / 2 - sin * (options.offset ?? 0);
    const centreY = this.pageHeight / 2 + cos * (options.offset ?? 0);
    const x = centreX - (cos * width) / 2 + (sin * capHeight) / 2;
    const y = centreY - (sin * width) / 2 - (cos * capHeight) / 2;
    this.ops.push({ kind: 'stamp', text, x: round(x), y: round(y), size: round(size), angle: round((angle * 180) / Math.PI), color: 'stamp' });
  }
}
