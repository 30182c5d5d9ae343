/**
 * The Bill of Lading library, for `shipper bol` and `GET /v1/shipper/shipment/{id}/bol`. Importing
 * this module loads pdf-lib, fontkit and bwip-js: import it lazily. Listing templates alone needs
 * only `./template.js`.
 */
export { createBolRenderer, REPLACEMENT_CHARACTER, type BolRenderer, type BolRendererOptions } from './render.js';
export { BolTemplateError, findBolTemplatesDir, isBolTemplateName, listBolTemplates, loadBolTemplate, type BolTemplate, type BolTemplateSpec } from './template.js';
export { referenceLine } from './layout.js';
export { bolBarcodeData } from './barcode.js';
