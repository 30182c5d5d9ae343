/** The documents of a shipment: BOL, labels, invoice, the carrier's files, and the BOL templates. */
import { z } from 'zod';
import { bolTemplateInfoSchema, tenderDocumentSchema, tenderRequestSchema } from '../../domain/schemas.js';
import { invoiceSchema } from '../../domain/invoice.js';
import { documentResponseSchema, publishedInvoiceSchema } from '../../domain/documents.js';
import { onFirstUse } from '../../domain/schemaOnFirstUse.js';
import { API_PREFIX, PDF_TYPE } from '../wire.js';
import { once, operation, type OperationSpec } from './spec.js';

const templateQuery = once(() =>
  z.strictObject({
    template: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,64}$/, { message: 'template names are letters, digits, - and _ (at most 64)' })
      .optional()
      .meta({ description: 'BOL template name (default `standard`)' }),
  }),
);

const labelQuery = once(() =>
  z.strictObject({
    format: z.enum(['pdf', 'zpl'], { error: 'format is pdf or zpl' }).optional().meta({ description: 'pdf (4x6 in pages, the default) or zpl (203 dpi thermal printers)' }),
  }),
);

export const ZPL_TYPE = 'application/zpl';

/** What a signed download link carries beside its path: when it expires and its signature (local/documentLinks.ts). */
const downloadQuery = once(() =>
  z.strictObject({
    expires: z.string().max(20).optional().meta({ description: 'When the link expires, in seconds since the epoch' }),
    signature: z.string().max(200).optional().meta({ description: 'HMAC-SHA256 of the shipment, the document type and the expiry, base64url' }),
  }),
);

const bolTemplateList = onFirstUse(() => z.object({ items: z.array(bolTemplateInfoSchema) }));

export const documentOperations = {
  renderLabels: operation({
    method: 'GET',
    path: `${API_PREFIX}/shipment/{shipmentId}/labels`,
    params: ['shipmentId'],
    get query() {
      return labelQuery();
    },
    response: {
      status: 200,
      description: 'One GS1 logistic label per handling unit, each with its own SSCC: 4x6 in PDF pages or ZPL',
      mediaType: PDF_TYPE,
      mediaTypes: { pdf: PDF_TYPE, zpl: ZPL_TYPE },
      fileName: ([id], query) => `labels-${id}.${query.format === 'zpl' ? 'zpl' : 'pdf'}`,
    },
    errors: [400, 401, 404, 409, 500],
    summary: 'The pallet labels of a shipment (a cancelled shipment has none, 409)',
    tags: ['Shipments'],
    extension: true,
  }),
  createTender: operation({
    method: 'POST',
    path: `${API_PREFIX}/shipment/{shipmentId}/tender`,
    params: ['shipmentId'],
    body: { id: 'TenderRequest', schema: tenderRequestSchema },
    response: { status: 200, description: 'The file for the carrier, with its media type and a file name', id: 'TenderDocument', schema: tenderDocumentSchema },
    errors: [400, 401, 404, 409, 413, 415, 500],
    summary:
      "A file for the carrier's systems: NMFTA eBOL 2.1 request, X12 204 load tender or 211 bill of lading (X12 control numbers never repeat); an INITIALIZED order is refused (409: confirm it first)",
    tags: ['Shipments'],
    extension: true,
  }),
  renderBol: operation({
    method: 'GET',
    path: `${API_PREFIX}/shipment/{shipmentId}/bol`,
    params: ['shipmentId'],
    get query() {
      return templateQuery();
    },
    response: { status: 200, description: 'The Bill of Lading as PDF', mediaType: PDF_TYPE, fileName: ([id]) => `bol-${id}.pdf` },
    errors: [400, 401, 404, 500],
    summary: 'The Bill of Lading of a shipment as PDF',
    operationId: 'getBillOfLading',
    tags: ['Shipments'],
    extension: true,
  }),
  getDocument: operation({
    method: 'GET',
    path: `${API_PREFIX}/shipment/{orderNumber}/document/{documentType}`,
    params: ['orderNumber', 'documentType'],
    response: { status: 200, description: 'A signed link to the document, valid 15 minutes', id: 'DocumentResponse', schema: documentResponseSchema },
    serverLinks: ['downloadLink', 'url'],
    errors: [400, 401, 404, 500],
    summary: 'A download link for a document of the order: BILL_OF_LADING (or BOL), INVOICE, SHIPPING_LABEL (or LABEL), POD',
    description:
      'The link is on this server and needs no credentials: its signature is one. A cancelled order has its VOID BOL, no labels and no invoice (404); shipper keeps no proof of delivery yet (POD: 404).',
    tags: ['Shipments'],
    extension: false,
  }),
  downloadDocument: operation({
    method: 'GET',
    path: `${API_PREFIX}/shipment/{shipmentId}/document/{documentType}/download`,
    params: ['shipmentId', 'documentType'],
    get query() {
      return downloadQuery();
    },
    response: { status: 200, description: 'The document as PDF', mediaType: PDF_TYPE, fileName: ([id, type]) => `${type}-${id}.pdf` },
    public: true,
    errors: [400, 403, 404, 500],
    summary: 'The document a link of GET .../document/{documentType} points at (no credentials: a link that was altered or has expired is refused, 403)',
    tags: ['Shipments'],
    extension: true,
  }),
  getInvoice: operation({
    method: 'GET',
    path: `${API_PREFIX}/shipment/{orderNumber}/invoice`,
    params: ['orderNumber'],
    response: { status: 200, description: 'The itemized invoice of a delivered order', id: 'InvoiceResponse', schema: publishedInvoiceSchema },
    errors: [400, 401, 404, 500],
    summary: 'The itemized invoice of a delivered order (400 before it is DELIVERED, as published; `Accept: application/pdf` answers the PDF)',
    tags: ['Shipments'],
    extension: false,
  }),
  getInvoiceDetail: operation({
    method: 'GET',
    path: `${API_PREFIX}/shipment/{shipmentId}/invoice/detail`,
    params: ['shipmentId'],
    response: { status: 200, description: "shipper's invoice", id: 'Invoice', schema: invoiceSchema },
    errors: [401, 404, 500],
    summary: 'The invoice of a shipment: one line per order component with its share of the linehaul, then discount, fuel and accessorials, adding up to the booked price',
    description: "INV- and the order number's digits; dated the pickup day; billed to the party the freight charge terms name. Any state but CANCELLED (404).",
    tags: ['Shipments'],
    extension: true,
  }),
  renderInvoice: operation({
    method: 'GET',
    path: `${API_PREFIX}/shipment/{orderNumber}/invoice`,
    params: ['orderNumber'],
    response: { status: 200, description: 'The invoice as PDF', mediaType: PDF_TYPE, fileName: ([id]) => `invoice-${id}.pdf` },
    errors: [401, 404, 500],
    summary: 'The invoice of a shipment as PDF (the same path, asked for with Accept: application/pdf)',
    operationId: 'getInvoicePdf',
    tags: ['Shipments'],
    extension: true,
  }),
  listBolTemplates: operation({
    method: 'GET',
    path: `${API_PREFIX}/bol-templates`,
    params: [],
    response: { status: 200, description: 'The templates', id: 'BolTemplateList', schema: bolTemplateList },
    errors: [401, 500],
    summary: 'The BOL templates the server can render',
    tags: ['Shipments'],
    extension: true,
  }),
} as const satisfies Record<string, OperationSpec>;
