/**
 * Pallet labels as ZPL II for 203-dpi thermal printers (4 x 6 in: 812 x 1218 dots), PURE: the
 * same label plan as the PDF, one ^XA...^XZ format per label. Text is UTF-8 (^CI28) in the
 * printer's scalable font 0 at the layout's sizes; the plan's lines were measured with DejaVu
 * Sans, which is wider than font 0, so they fit. Centred and right-aligned text is aligned by the
 * printer in its box (^FB). The SSCC is a native ^BC Code 128 in subset C behind FNC1
 * (`>;>8`): GS1-128, encoded by the printer, with our own check digit.
 */
import { BASELINE, type DrawOp } from '../print/drawOps.js';
import { LABEL_SIZE, SSCC_BARCODE, type LabelLayout } from './layout.js';

export const ZPL_DPI = SSCC_BARCODE.dpi;
/** 4 x 6 in at 203 dpi. */
export const ZPL_LABEL_DOTS = { width: Math.round((LABEL_SIZE.width / 72) * ZPL_DPI), height: Math.round((LABEL_SIZE.height / 72) * ZPL_DPI) } as const;

const dots = (points: number) => Math.round((points * ZPL_DPI) / 72);

/**
 * Field data as ^FH takes it: ^ and ~ (command prefixes) and _ (the hex indicator itself) as
 * hexadecimal escapes; inside a field block (^FB) a backslash is doubled, since \& there means a
 * line break.
 */
export function zplFieldData(text: string, inFieldBlock: boolean): string {
  let escaped = text.replace(/[_^~]/g, (char) => `_${char.charCodeAt(0).toString(16).toUpperCase()}`);
  if (inFieldBlock) escaped = escaped.replace(/\\/g, '\\\\');
  return escaped;
}

/**
 * ^BC field data for a GS1-128 element string in bracketed notation: subset C from the start
 * (`>;`), FNC1 (`>8`), then the digits in pairs. Only all-numeric, even-length element strings
 * such as (00) + SSCC are written this way; anything else is refused rather than misprinted.
 */
export function zplGs1128FieldData(elementString: string): string {
  const digits = elementString.replace(/[()]/g, '');
  if (!/^(\d\d)+$/.test(digits)) throw new RangeError(`only even-length numeric GS1 element strings are written for ^BC, got "${elementString}"`);
  return `>;>8${digits}`;
}

function opToZpl(op: DrawOp, pageHeight: number): string {
  switch (op.kind) {
    case 'text': {
      const height = dots(op.size);
      const top = dots(pageHeight - op.y - op.size * BASELINE);
      const font = `^A0N,${height},${height}`;
      if (op.box) {
        const align = op.box.align === 'center' ? 'C' : op.box.align === 'right' ? 'R' : 'L';
        return `^FO${dots(op.box.left)},${top}${font}^FB${dots(op.box.width)},1,0,${align},0^FH^FD${zplFieldData(op.text, true)}^FS`;
      }
      return `^FO${dots(op.x)},${top}${font}^FH^FD${zplFieldData(op.text, false)}^FS`;
    }
    case 'line': {
      const thickness = Math.max(2, dots(op.thickness));
      const [x1, x2] = [Math.min(op.x1, op.x2), Math.max(op.x1, op.x2)];
      const [yLow, yHigh] = [Math.min(op.y1, op.y2), Math.max(op.y1, op.y2)];
      const left = dots(x1);
      const top = dots(pageHeight - yHigh);
      if (yLow === yHigh) return `^FO${left},${top - Math.floor(thickness / 2)}^GB${Math.max(thickness, dots(x2 - x1))},${thickness},${thickness}^FS`;
      if (x1 === x2) return `^FO${left - Math.floor(thickness / 2)},${top}^GB${thickness},${Math.max(thickness, dots(yHigh - yLow))},${thickness}^FS`;
      throw new RangeError('the ZPL writer draws horizontal and vertical lines only');
    }
    case 'rect': {
      const [width, height] = [Math.max(1, dots(op.width)), Math.max(1, dots(op.height))];
      const origin = `^FO${dots(op.x)},${dots(pageHeight - op.y - op.height)}`;
      const parts: string[] = [];
      // A thermal label has black and white only: a fill prints black when it is the text colour.
      if (op.fill === 'text' || op.fill === 'accent') parts.push(`${origin}^GB${width},${height},${Math.min(width, height)}^FS`);
      if (op.stroke) parts.push(`${origin}^GB${width},${height},${Math.max(2, dots(op.thickness))}^FS`);
      return parts.join('\n');
    }
    case 'barcode': {
      if (op.symbology !== 'gs1-128' || op.modules === null) throw new RangeError(`the ZPL writer prints GS1-128 barcodes of known width only, got ${op.symbology}`);
      const moduleDots = Math.max(1, Math.round(dots(op.width) / op.modules));
      return `^FO${dots(op.x)},${dots(pageHeight - op.y - op.height)}^BY${moduleDots}^BCN,${dots(op.height)},N,N,N^FD${zplGs1128FieldData(op.data)}^FS`;
    }
    case 'image':
    case 'stamp':
      throw new RangeError(`the ZPL writer has no ${op.kind} on a label`);
  }
}

/** The labels of a plan as one ZPL document: a format per label, in order. */
export function labelsToZpl(layout: LabelLayout): string {
  return layout.labels
    .map((label) =>
      [
        '^XA',
        '^CI28',
        `^PW${ZPL_LABEL_DOTS.width}`,
        `^LL${ZPL_LABEL_DOTS.height}`,
        '^LH0,0',
        `^FX pallet ${label.number} of ${label.count}, SSCC ${label.sscc}^FS`,
        ...label.ops.map((op) => opToZpl(op, layout.pageHeight)),
        '^XZ',
      ].join('\n'),
    )
    .join('\n')
    .concat('\n');
}
