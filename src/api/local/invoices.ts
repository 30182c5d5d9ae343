/**
 * Invoices of the local engine (GET /v1/shipper/shipment/{id}/invoice): built from the shipment by
 * the pure domain (domain/invoice.ts), the linehaul shared by the tariff's rates; as PDF through
 * src/invoice (pdf-lib and fonts, loaded on first use). Nothing is stored: the invoice of a
 * shipment is always the same document.
 */
import { buildInvoice, InvoiceError, tariffLinehaulWeights, type Invoice } from '../../domain/invoice.js';
import type { Tariff } from '../../domain/tariff.js';
import type { CarrierAgreement } from '../../domain/agreements/rateAgreement.js';
import type { Shipment } from '../../domain/schemas.js';
import { StoreError } from '../../store/storeError.js';
import { makeProblem, ProblemError } from '../problems.js';
import type { InvoicePlaces } from '../../invoice/layout.js';
import type { ZipLookup } from '../../domain/zipCode.js';
import type { Shipments } from './shipments.js';

export class Invoices {
  private renderer: Promise<(invoice: Invoice, places: InvoicePlaces) => Promise<Uint8Array>> | undefined;

  constructor(
    private readonly shipments: Shipments,
    private readonly tariff: () => Promise<Tariff>,
    private readonly agreements: () => Promise<CarrierAgreement[]> = async () => [],
    private readonly zips?: ZipLookup,
  ) {}

  async get(shipmentId: string): Promise<Invoice> {
    const shipment = await this.shipments.get(shipmentId);
    if (shipment.orderStatus === 'CANCELLED') {
      // The invoice does not exist; the shipment does: say why.
      throw makeProblem(
        404,
        'not-found',
        'Not Found',
        `shipment ${shipment.orderNumber} (${shipmentId}) was cancelled${shipment.cancelledAt ? ` on ${shipment.cancelledAt.slice(0, 10)}` : ''}: it has no invoice`,
      );
    }
    try {
      // What was priced, when the record says it (issue 26): each line's linehaul as quoted; older
      // records share the booked linehaul by the tariff loaded now, as before.
      const recorded = shipment.priceBreakdown.lineLinehaulsInCents;
      const linehaulWeights =
        recorded?.length === shipment.orderComponents.length ? recorded : tariffLinehaulWeights(shipment.orderComponents, shipment.miles, await this.tariff());
      return buildInvoice(shipment, { linehaulWeights, accessorialDescriptions: await this.accessorialDescriptions(shipment) });
    } catch (error) {
      if (!(error instanceof InvoiceError)) throw error;
      // A record whose breakdown does not add up was not written by this engine: the store's problem.
      throw ProblemError.of(new StoreError(`shipment ${shipmentId}: ${error.message}`));
    }
  }

  /** The accessorials' names in the agreement that priced the shipment, else in the tariff. */
  private async accessorialDescriptions(shipment: Shipment): Promise<Record<string, string>> {
    const pricedBy = shipment.pricedBy;
    if (pricedBy?.kind === 'AGREEMENT') {
      const agreement = (await this.agreements().catch(() => [])).find((item) => item.agreement.scac === pricedBy.scac && item.agreement.agreement === pricedBy.agreement);
      if (agreement) {
        return Object.fromEntries(Object.entries(agreement.agreement.accessorials).flatMap(([code, charge]) => (charge.description ? [[code, charge.description] as const] : [])));
      }
      return {};
    }
    const tariff = await this.tariff();
    return Object.fromEntries(Object.entries(tariff.accessorials).map(([code, accessorial]) => [code, accessorial.description]));
  }

  async renderPdf(shipmentId: string): Promise<Uint8Array> {
    const invoice = await this.get(shipmentId);
    this.renderer ??= import('../../invoice/index.js').then(({ renderInvoicePdf }) => renderInvoicePdf);
    const timeZoneOf = (zipCode: string) => this.zips?.lookup(zipCode)?.timeZone ?? null;
    return (await this.renderer)(invoice, { originTimeZone: timeZoneOf(invoice.shipper.zipCode), destinationTimeZone: timeZoneOf(invoice.consignee.zipCode) });
  }
}
