/**
 * Pallet labels, for `shipper labels` and `GET /v1/shipper/shipment/{id}/labels`. Importing this
 * module loads pdf-lib, fontkit and bwip-js: import it lazily. Both formats measure text with the
 * document font, which is loaded once per process.
 */
import type { Shipment } from '../domain/schemas.js';
import { loadDocumentFonts } from '../print/fonts.js';
import { layoutLabels, type LabelOptions } from './layout.js';
import { renderLabelsPdf } from './pdf.js';
import { labelsToZpl } from './zpl.js';

export { checkLabelRequest, handlingUnits, LABEL_SIZE, LabelError, type HandlingUnit, type LabelOptions } from './layout.js';
export { ZPL_LABEL_DOTS } from './zpl.js';

export type LabelFormat = 'pdf' | 'zpl';

/**
 * The labels of `shipment`, one per handling unit with `ssccs[i]` on the i-th (component by
 * component, in order). PDF bytes, or ZPL text encoded as UTF-8. Throws LabelError for a cancelled
 * shipment or SSCCs that are not one valid, distinct SSCC per handling unit.
 */
export async function renderLabels(shipment: Shipment, ssccs: readonly string[], format: LabelFormat, options: LabelOptions = {}): Promise<Uint8Array> {
  const fonts = await loadDocumentFonts();
  const layout = layoutLabels(shipment, ssccs, fonts.metrics, options);
  return format === 'pdf' ? renderLabelsPdf(shipment, layout, fonts) : new TextEncoder().encode(labelsToZpl(layout));
}
