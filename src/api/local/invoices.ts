/**
 * Invoices of the local engine (GET /v1/shipper/shipment/{id}/invoice): built from the shipment by
 * the pure domain (domain/invoice.ts), the linehaul shared by the tariff's rates; as PDF through
 * src/invoice (pdf-lib and fonts, loaded on first use). Nothing is stored: the invoice of a
 * shipment is always the same document.
 */
import { buildInvoice, InvoiceError, tariffLinehaulWeights, type Invoice } from '../../domain/invoice.js';
import type { Tariff } from '../../domain/tariff.js';
import { makeProblem, ProblemError, PROBLEM_TYPE_BASE } from '../problems.js';
import type { InvoicePlaces } from '../../invoice/layout.js';
import type { ZipLookup } from './quotes.js';
import type { Shipments } from './shipments.js';

export class Invoices {
  private renderer: Promise<(invoice: Invoice, places: InvoicePlaces) => Promise<Uint8Array>> | undefined;

  constructor(
    private readonly shipments: Shipments,
    private readonly tariff: () => Promise<Tariff>,
    private readonly zips?: ZipLookup,
  ) {}

  async get(shipmentId: string): Promise<Invoice> {
    const shipment = await this.shipments.get(shipmentId);
    if (shipment.status === 'CANCELLED') {
      // The invoice does not exist; the shipment does: say why.
      throw makeProblem(
        404,
        'not-found',
        'Not Found',
        `shipment ${shipment.orderNumber} (${shipmentId}) was cancelled${shipment.cancelledAt ? ` on ${shipment.cancelledAt.slice(0, 10)}` : ''}: it has no invoice`,
      );
    }
    const tariff = await this.tariff();
    try {
      return buildInvoice(shipment, {
        linehaulWeights: tariffLinehaulWeights(shipment.orderComponents, shipment.miles, tariff),
        accessorialDescriptions: Object.fromEntries(Object.entries(tariff.accessorials).map(([code, accessorial]) => [code, accessorial.description])),
      });
    } catch (error) {
      if (!(error instanceof InvoiceError)) throw error;
      // A record whose breakdown does not add up was not written by this engine: the store's problem.
      throw new ProblemError(
        {
          type: `${PROBLEM_TYPE_BASE}store-failure`,
          title: 'Store Failure',
          status: 500,
          detail: 'the service could not read or write its store; the operator finds the cause in its log',
        },
        `shipment ${shipmentId}: ${error.message}`,
      );
    }
  }

  async renderPdf(shipmentId: string): Promise<Uint8Array> {
    const invoice = await this.get(shipmentId);
    this.renderer ??= import('../../invoice/index.js').then(({ renderInvoicePdf }) => renderInvoicePdf);
    const timeZoneOf = (postalCode: string) => this.zips?.lookup(postalCode)?.timeZone ?? null;
    return (await this.renderer)(invoice, { originTimeZone: timeZoneOf(invoice.shipper.postalCode), destinationTimeZone: timeZoneOf(invoice.consignee.postalCode) });
  }
}
