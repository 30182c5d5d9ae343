/**
 * The published document operations (`GET .../document/{documentType}`, `GET .../invoice`): the
 * document types with the official client's aliases, the DocumentResponse, and the published
 * InvoiceResponse made from shipper's invoice. Pure: zod and data only.
 */
import { z } from 'zod';
import { onFirstUse } from './schemaOnFirstUse.js';
import type { Invoice } from './invoice.js';
import type { Shipment } from './schemas.js';

export const DOCUMENT_TYPES = ['BILL_OF_LADING', 'INVOICE', 'SHIPPING_LABEL', 'POD'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

/** What the official TypeScript client sends (`BOL`, `LABEL`): accepted beside the published names. */
const DOCUMENT_TYPE_ALIASES: Readonly<Record<string, DocumentType>> = { BOL: 'BILL_OF_LADING', LABEL: 'SHIPPING_LABEL' };

/** The published type a path segment names, or undefined. Case matters, as in the published enum. */
export function documentTypeOf(segment: string): DocumentType | undefined {
  return (DOCUMENT_TYPES as readonly string[]).includes(segment) ? (segment as DocumentType) : DOCUMENT_TYPE_ALIASES[segment];
}

export const DOCUMENT_TYPE_LIST = [...DOCUMENT_TYPES, ...Object.keys(DOCUMENT_TYPE_ALIASES)].join(', ');

/** `bol-SO-000123.pdf`: the published example's form, with shipper's order number. */
export function documentFileName(type: DocumentType, orderNumber: string): string {
  const prefix = { BILL_OF_LADING: 'bol', INVOICE: 'invoice', SHIPPING_LABEL: 'labels', POD: 'pod' }[type];
  return `${prefix}-${orderNumber}.pdf`;
}

export const documentResponseSchema = onFirstUse(() =>
  z.object({
    filename: z.string().meta({ example: 'bol-SO-000123.pdf' }),
    fileType: z.string().meta({ description: 'MIME type of the document', example: 'application/pdf' }),
    downloadLink: z.string().meta({ description: 'A signed link on this server, valid until expiresAt; it needs no credentials' }),
    url: z.string().meta({ description: 'The same link as downloadLink: the official client reads `url`' }),
    expiresAt: z.string().meta({ description: 'When the link stops working' }),
  }),
);

// ---------------------------------------------------------------------------------------------
// The published invoice

/** A party of the invoice: the published Address; the contact and the phone absent where the order has none (records before they were asked for). */
const address = z.object({
  name: z.string(),
  address1: z.string(),
  address2: z.string().optional(),
  city: z.string(),
  state: z.string(),
  zipCode: z.string(),
  contactPerson: z.string().optional(),
  phoneNumber: z.string().optional(),
  openTime: z.string().optional(),
  closeTime: z.string().optional(),
  notes: z.string().optional(),
  liftgateRequired: z.boolean().optional(),
  limitedAccess: z.boolean().optional(),
  appointmentRequired: z.boolean().optional(),
  callAheadRequired: z.boolean().optional(),
  countryCode: z.string().optional().meta({ description: 'Extension: US' }),
});

export const publishedInvoiceSchema = onFirstUse(() =>
  z.looseObject({
    orderId: z.string(),
    orderNumber: z.string(),
    invoiceDate: z.string().meta({ description: 'The delivery instant' }),
    shipDate: z.string().optional().meta({ description: 'The actual pickup instant; absent when no pickup event was recorded' }),
    deliveryDate: z.string(),
    poNumber: z.string().optional(),
    refNumber: z.string().optional(),
    lineItems: z.array(
      z.looseObject({
        description: z.string().optional(),
        freightClass: z.string().optional(),
        weight: z.number().int(),
        quantity: z.number().int(),
        packageType: z.string().optional(),
      }),
    ),
    charges: z.array(z.object({ chargeType: z.string(), description: z.string(), amountInCents: z.number().int() })),
    totalChargesInCents: z.number().int(),
    totalWeight: z.number().int(),
    totalPieces: z.number().int(),
    shipper: address,
    consignee: address,
    billTo: address,
    invoiceNumber: z.string().meta({ description: "Extension: INV- and the order number's digits" }),
    bolNumber: z.string().meta({ description: 'Extension: the VICS BOL number' }),
  }),
);
export type PublishedInvoice = z.output<typeof publishedInvoiceSchema>;

/** The published types have no null: a field without a value is left out. */
function present<T extends Record<string, unknown>>(record: T): { [K in keyof T]?: NonNullable<T[K]> } {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== null && value !== undefined)) as { [K in keyof T]?: NonNullable<T[K]> };
}

const CHARGE_TYPES: Record<Invoice['lines'][number]['kind'], string> = {
  FREIGHT: 'BASE_FREIGHT',
  DISCOUNT: 'DISCOUNT',
  FUEL_SURCHARGE: 'FUEL_SURCHARGE',
  ACCESSORIAL: 'ACCESSORIAL',
};

/**
 * The published InvoiceResponse of a delivered order from shipper's invoice: one line item per
 * order component (its pallets as the quantity, `packagingType` as the package type, the
 * component's total weight), one charge per invoice line (freight per component as BASE_FREIGHT,
 * the discount negative), dated the delivery. shipper's own invoice stays at GET .../invoice/detail.
 */
export function publishedInvoiceOf(
  invoice: Invoice,
  shipment: Pick<Shipment, 'poNumber' | 'orderComponents'>,
  dates: { shipDate?: string | undefined; deliveryDate: string },
): PublishedInvoice {
  return {
    orderId: invoice.shipmentId,
    orderNumber: invoice.orderNumber,
    invoiceDate: dates.deliveryDate,
    ...present({ shipDate: dates.shipDate, poNumber: shipment.poNumber, refNumber: invoice.refNumber }),
    deliveryDate: dates.deliveryDate,
    lineItems: shipment.orderComponents.map((component) => ({
      ...present({ description: component.description, freightClass: component.freightClass, packageType: component.packagingType }),
      weight: Math.round(component.poundsWeight),
      quantity: component.palletCount,
    })),
    charges: invoice.lines.map((line) => ({
      chargeType: line.code ?? CHARGE_TYPES[line.kind],
      description: line.description ?? CHARGE_TYPES[line.kind],
      amountInCents: line.amountInCents,
    })),
    totalChargesInCents: invoice.totals.totalInCents,
    totalWeight: Math.round(invoice.totals.poundsWeight),
    totalPieces: invoice.totals.palletCount,
    shipper: present(invoice.shipper) as PublishedInvoice['shipper'],
    consignee: present(invoice.consignee) as PublishedInvoice['consignee'],
    billTo: present(invoice.billTo) as PublishedInvoice['billTo'],
    invoiceNumber: invoice.invoiceNumber,
    bolNumber: invoice.bolNumber,
  };
}
