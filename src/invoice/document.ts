/**
 * A flowing business document, PURE: the page plan of the invoice and of the dispute pack, built
 * top-down from blocks (address boxes, label/value lists, tables, paragraphs) on US letter pages
 * with the drawing operations of src/print. A block that does not fit goes to the next page; a
 * table continues on the next page under its repeated header row. Every page carries the
 * document's title line and "Page N of M".
 *
 * Every text is made printable with the document font (a character it cannot draw becomes a
 * visible mark) and fitted to its box: one-line values are cut with an ellipsis, table cells wrap.
 */
import { LINE_SPACING, PageOps, type DrawOp, type TextMetrics } from '../print/drawOps.js';
import { oneLine, truncateToWidth, wrapText } from '../print/text.js';

export const LETTER = { width: 612, height: 792 } as const;
const MARGIN = 36;
const PAD = 4;
export const SIZE = { title: 16, heading: 9.5, body: 8, label: 6.5, cell: 7.5, footer: 7 } as const;

export interface TableColumn {
  label: string;
  /** Points; 0: the width the other columns leave (shared among such columns). */
  width: number;
  align?: 'left' | 'right' | 'center';
  /** Cells wrap on several lines (descriptions); otherwise they are cut to one line. */
  wrap?: boolean;
}

export interface TableRow {
  cells: ReadonlyArray<string>;
  bold?: boolean;
  /** A rule above the row (totals). */
  ruleAbove?: boolean;
  /** Shaded (a line that is disputed, a total). */
  shaded?: boolean;
}

export interface BoxContent {
  title: string;
  lines: ReadonlyArray<string>;
  /** The first line in bold (a name). */
  boldFirst?: boolean;
}

export interface DocumentPlan {
  pageWidth: number;
  pageHeight: number;
  pages: DrawOp[][];
}

export class FlowDocument {
  private readonly pages: PageOps[] = [];
  private page!: PageOps;
  private y = 0;
  readonly left = MARGIN;
  readonly right = LETTER.width - MARGIN;
  readonly width = LETTER.width - 2 * MARGIN;
  private readonly bottom = LETTER.height - MARGIN - 14;

  /**
   * @param title the document's title, large on page 1 (e.g. "FREIGHT INVOICE")
   * @param runningTitle the line at the top of every later page (e.g. "Invoice INV-000123")
   */
  constructor(
    private readonly metrics: TextMetrics,
    private readonly title: string,
    private readonly runningTitle: string,
  ) {
    this.newPage();
  }

  /** The text as the font prints it, on one line. */
  text(value: string | null | undefined): string {
    return value ? this.metrics.printable(oneLine(value)) : '';
  }

  private newPage(): void {
    this.page = new PageOps(LETTER.height, this.metrics);
    this.pages.push(this.page);
    this.y = MARGIN;
    if (this.pages.length === 1) {
      this.page.text(this.text(this.title), this.left, this.y, SIZE.title, { bold: true, color: 'accent' });
      this.y += SIZE.title * LINE_SPACING + 2;
    } else {
      this.page.text(truncateToWidth(this.text(this.runningTitle), this.width - 80, SIZE.body, true, this.metrics), this.left, this.y, SIZE.body, { bold: true });
      this.y += SIZE.body * LINE_SPACING + 2;
    }
    this.page.hline(this.left, this.right, this.y, 1, 'accent');
    this.y += 6;
  }

  /** Room for `height` more points on this page, else a new page. */
  private ensure(height: number): void {
    if (this.y + height > this.bottom && this.y > MARGIN + 40) this.newPage();
  }

  space(points: number): void {
    this.y += points;
  }

  heading(text: string): void {
    this.ensure(SIZE.heading * LINE_SPACING + 30);
    this.y += 4;
    this.page.text(this.text(text), this.left, this.y, SIZE.heading, { bold: true, color: 'accent' });
    this.y += SIZE.heading * LINE_SPACING + 2;
  }

  /** Label/value pairs in `columns` columns, label above value. */
  fields(pairs: ReadonlyArray<readonly [label: string, value: string]>, columns = 4): void {
    const columnWidth = this.width / columns;
    const rowHeight = SIZE.label * LINE_SPACING + SIZE.body * LINE_SPACING + 4;
    for (let start = 0; start < pairs.length; start += columns) {
      this.ensure(rowHeight);
      pairs.slice(start, start + columns).forEach(([label, value], index) => {
        const x = this.left + index * columnWidth;
        this.page.text(this.text(label).toUpperCase(), x, this.y, SIZE.label, { color: 'accent' });
        this.page.text(truncateToWidth(this.text(value) || '-', columnWidth - PAD * 2, SIZE.body, true, this.metrics), x, this.y + SIZE.label * LINE_SPACING, SIZE.body, {
          bold: true,
        });
      });
      this.y += rowHeight;
    }
  }

  /** Boxes side by side (bill to, ship from, ship to), each a title bar and its lines. */
  boxes(boxes: ReadonlyArray<BoxContent>): void {
    const gap = 8;
    const boxWidth = (this.width - gap * (boxes.length - 1)) / boxes.length;
    const inner = boxWidth - PAD * 2;
    const wrapped = boxes.map((box) =>
      box.lines.flatMap((line, index) =>
        wrapText(this.text(line), inner, SIZE.body, Boolean(box.boldFirst) && index === 0, this.metrics)
          .slice(0, 3)
          .map((text) => ({ text, bold: Boolean(box.boldFirst) && index === 0 })),
      ),
    );
    const barHeight = SIZE.label * LINE_SPACING + 3;
    const height = barHeight + Math.max(1, ...wrapped.map((lines) => lines.length)) * SIZE.body * LINE_SPACING + PAD * 2;
    this.ensure(height);
    boxes.forEach((box, index) => {
      const x = this.left + index * (boxWidth + gap);
      this.page.rect(x, this.y, boxWidth, barHeight, { fill: 'headerFill' });
      this.page.text(this.text(box.title).toUpperCase(), x + PAD, this.y + 1.5, SIZE.label, { bold: true, color: 'headerText' });
      this.page.rect(x, this.y, boxWidth, height, { stroke: 'rule', thickness: 0.6 });
      let lineTop = this.y + barHeight + PAD;
      for (const line of wrapped[index]!) {
        this.page.text(line.text, x + PAD, lineTop, SIZE.body, { bold: line.bold });
        lineTop += SIZE.body * LINE_SPACING;
      }
    });
    this.y += height + 6;
  }

  paragraph(text: string, options: { size?: number; bold?: boolean } = {}): void {
    const size = options.size ?? SIZE.body;
    for (const line of wrapText(this.text(text), this.width, size, options.bold ?? false, this.metrics)) {
      this.ensure(size * LINE_SPACING);
      this.page.text(line, this.left, this.y, size, { bold: options.bold ?? false });
      this.y += size * LINE_SPACING;
    }
    this.y += 2;
  }

  /** A table; rows that do not fit continue on the next page under the header row again. */
  table(columns: ReadonlyArray<TableColumn>, rows: ReadonlyArray<TableRow>): void {
    const fixed = columns.reduce((sum, column) => sum + column.width, 0);
    const flexible = columns.filter((column) => column.width === 0).length;
    const widths = columns.map((column) => (column.width === 0 ? Math.max(40, (this.width - fixed) / Math.max(1, flexible)) : column.width));
    const lineHeight = SIZE.cell * LINE_SPACING;
    const headerLines = columns.map((column, index) => wrapText(this.text(column.label).toUpperCase(), widths[index]! - PAD * 2, SIZE.label, true, this.metrics));
    const headerHeight = Math.max(...headerLines.map((lines) => lines.length)) * SIZE.label * LINE_SPACING + PAD * 2;
    const drawHeader = () => {
      let x = this.left;
      this.page.rect(this.left, this.y, this.width, headerHeight, { fill: 'headerFill' });
      columns.forEach((column, index) => {
        const width = widths[index]!;
        const anchor = column.align === 'right' ? x + width - PAD : column.align === 'center' ? x + width / 2 : x + PAD;
        this.page.lines(headerLines[index]!, anchor, this.y + PAD, SIZE.label, { bold: true, color: 'headerText', align: column.align ?? 'left' });
        x += width;
      });
      this.y += headerHeight;
    };
    this.ensure(headerHeight + lineHeight + PAD * 2);
    drawHeader();
    for (const row of rows) {
      const bold = row.bold ?? false;
      const cells = columns.map((column, index) => {
        const width = widths[index]! - PAD * 2;
        const text = this.text(row.cells[index]);
        return column.wrap ? wrapText(text, width, SIZE.cell, bold, this.metrics).slice(0, 6) : [truncateToWidth(text, width, SIZE.cell, bold, this.metrics)];
      });
      const height = Math.max(1, ...cells.map((lines) => lines.length)) * lineHeight + PAD * 2 - 2;
      if (this.y + height > this.bottom) {
        this.newPage();
        drawHeader();
      }
      if (row.shaded) this.page.rect(this.left, this.y, this.width, height, { fill: 'headerFill' });
      if (row.ruleAbove) this.page.hline(this.left, this.right, this.y, 0.8, 'text');
      let x = this.left;
      columns.forEach((column, index) => {
        const width = widths[index]!;
        const anchor = column.align === 'right' ? x + width - PAD : column.align === 'center' ? x + width / 2 : x + PAD;
        this.page.lines(cells[index]!, anchor, this.y + PAD - 1, SIZE.cell, { bold, align: column.align ?? 'left' });
        x += width;
      });
      this.y += height;
      this.page.hline(this.left, this.right, this.y, 0.3, 'rule');
    }
    this.y += 6;
  }

  /**
   * The pages, each with "Page N of M" and `footer` at the bottom. `attachedPages`: pages that
   * follow in the same file (a dispute pack's BOL), counted in M.
   */
  finish(footer: string, attachedPages = 0): DocumentPlan {
    const count = this.pages.length + attachedPages;
    this.pages.forEach((page, index) => {
      const top = LETTER.height - MARGIN - SIZE.footer;
      page.hline(this.left, this.right, top - 3, 0.4, 'rule');
      page.text(truncateToWidth(this.text(footer), this.width - 80, SIZE.footer, false, this.metrics), this.left, top, SIZE.footer);
      page.text(`Page ${index + 1} of ${count}`, this.right, top, SIZE.footer, { bold: true, align: 'right' });
    });
    return { pageWidth: LETTER.width, pageHeight: LETTER.height, pages: this.pages.map((page) => page.ops) };
  }
}
