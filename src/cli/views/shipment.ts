/** How a shipment looks to people: the detail view (ship, shipment get) and the list's rows. */
import { freightTotals } from '../../domain/freightTotals.js';
import type { Address, Shipment } from '../../domain/schemas.js';
import { printable, printableRecord } from '../../printable.js';
import type { ZipLookup } from '../../domain/zipCode.js';
import type { CsvCell } from '../fileOutput.js';
import { formatCents, formatDate, formatInstant, formatNumber, localIsoInstant, plural, type IO } from '../output.js';
import { carrierDetailLines, hazmatLines } from './carrier.js';

function laneOf(shipment: Shipment): string {
  const { pickupAddress, deliveryAddress } = shipment;
  return `${pickupAddress.city}, ${pickupAddress.state} → ${deliveryAddress.city}, ${deliveryAddress.state}`;
}

function addressLine(address: Address): string {
  const contact = [address.contactPerson, address.phoneNumber].filter(Boolean).join(', ');
  return [address.name, address.address1, address.address2, `${address.city}, ${address.state} ${address.zipCode}`].filter(Boolean).join(', ') + (contact ? ` (${contact})` : '');
}

export function printShipment(io: IO, record: Shipment, zips: ZipLookup, heading = 'Shipment'): void {
  const c = io.color;
  // Data on its way to a terminal: control characters shown as escapes (printable.ts); instructions keep their line breaks.
  const shipment = {
    ...printableRecord({
      ...record,
      // A description of several lines (a CSV cell) is one table cell: its line breaks as spaces, as the BOL prints it.
      orderComponents: record.orderComponents.map((component) => ({ ...component, description: component.description?.replace(/\s*[\r\n]+\s*/g, ' ') ?? null })),
    }),
    specialInstructions: record.specialInstructions === null ? null : printable(record.specialInstructions),
  };
  const timeZone = zips.lookup(shipment.deliveryAddress.zipCode)?.timeZone;
  const tracking = shipment.trackingStatus !== 'NONE' ? `, ${shipment.trackingStatus.replace(/_/g, ' ').toLowerCase()}` : '';
  io.out(`${c.bold(heading)} ${shipment.id}  ${c.bold(shipment.orderNumber)}  ${shipment.orderStatus}${tracking}`);
  io.out(`  BOL number   ${shipment.bolNumber}`);
  if (shipment.refNumber) io.out(`  Reference    ${shipment.refNumber}`);
  io.field(`  Shipper      ${addressLine(shipment.pickupAddress)}`, 15);
  io.field(`  Consignee    ${addressLine(shipment.deliveryAddress)}`, 15);
  io.out(`  Distance     ${formatNumber(shipment.miles)} mi`);
  io.out(`  Pickup       ${formatDate(shipment.requiredPickupDate)}`);
  io.out(
    shipment.transitDays === null
      ? `  Transit      ${c.yellow('no coverage')} (no transit days or ETA on this lane)`
      : `  Transit      ${plural(shipment.transitDays, 'business day')} · ETA ${formatInstant(shipment.estimatedDeliveryDate!, timeZone)}`,
  );
  io.out(`  Price        ${c.bold.green(formatCents(shipment.totalPriceInCents))} (quote ${shipment.quoteId})`);
  if (shipment.accessorials.length > 0) io.out(`  Accessorials ${shipment.accessorials.join(', ')}`);
  if (shipment.specialInstructions) io.field(`  Instructions ${shipment.specialInstructions}`, 15);
  carrierDetailLines(shipment).forEach((line) => io.field(line, 15));
  if (shipment.orderStatus === 'CANCELLED') {
    io.out(`  ${c.red('Cancelled')}    ${shipment.cancelledAt ? formatInstant(shipment.cancelledAt) : ''}${shipment.cancellationReason ? `: ${shipment.cancellationReason}` : ''}`);
  }
  io.out('');
  io.out(
    io.fittedTable(
      ['#', 'Pallets', 'Weight (lb)', 'Dims (in)', 'Class', 'Pieces', 'Packaging', 'NMFC', 'Description'],
      shipment.orderComponents.map((component, index) => [
        index + 1,
        component.palletCount,
        formatNumber(component.poundsWeight),
        `${component.dimensions.length}x${component.dimensions.width}x${component.dimensions.height}`,
        component.freightClass,
        component.pieceCount ?? '',
        component.packagingType ?? '',
        component.nmfcCode ?? '',
        component.description ?? '',
      ]),
      // The description gives way first, then packaging; pieces and NMFC leave (the BOL has them).
      [{ shrink: [8], min: 12 }, { shrink: [6], min: 8 }, { drop: 5 }, { drop: 7 }, { shrink: [8], min: 6 }],
    ),
  );
  hazmatLines(shipment).forEach((line) => io.field(line, 4));
}

export function printShipmentList(io: IO, records: Shipment[], zips: ZipLookup): void {
  const shipments = records.map(printableRecord);
  const etas = shipments.map((shipment) =>
    shipment.estimatedDeliveryDate ? formatInstant(shipment.estimatedDeliveryDate, zips.lookup(shipment.deliveryAddress.zipCode)?.timeZone) : '-',
  );
  const etaDays = etas.map((eta) => eta.replace(/ \d{2}:\d{2} \S+$/, ''));
  const cancelled = (shipment: Shipment) => shipment.orderStatus === 'CANCELLED';
  const freight = shipments.map((shipment) => freightTotals(shipment.orderComponents));
  const rows = shipments.map((shipment, index) => [
    shipment.id,
    shipment.orderNumber,
    cancelled(shipment)
      ? io.color.red('CANCELLED')
      : shipment.trackingStatus !== 'NONE'
        ? `${shipment.orderStatus}, ${shipment.trackingStatus.replace(/_/g, ' ').toLowerCase()}`
        : shipment.orderStatus,
    shipment.refNumber ?? '',
    laneOf(shipment),
    formatNumber(freight[index]!.pallets),
    formatNumber(freight[index]!.poundsWeight),
    formatCents(shipment.totalPriceInCents),
    String(shipment.transitDays ?? 'no coverage'),
    etas[index]!,
  ]);
  io.out(
    io.fittedTable(['Shipment', 'Order', 'Status', 'Ref', 'Lane', 'Pallets', 'Weight (lb)', 'Price', 'Transit days', 'ETA'], rows, [
      { shrink: [4], min: 24 },
      { drop: 8 },
      { shrink: [3], min: 8 },
      { replace: 9, cells: etaDays },
      { drop: 6 },
      { drop: 5 },
      // The status column leaves next: what ends a shipment's ETA says so in its place (a delivered one has no ETA to show).
      {
        replace: 9,
        cells: shipments.map((shipment, index) => (cancelled(shipment) ? io.color.red('CANCELLED') : shipment.trackingStatus === 'DELIVERED' ? 'DELIVERED' : etaDays[index]!)),
        head: 'ETA / status',
      },
      { drop: 2 },
      { shrink: [4], min: 12 },
      { drop: 0 },
    ]),
  );
}

/** `shipment list --csv`: one line per shipment, every column a daily report needs. Money in dollars. */
export const SHIPMENT_CSV_HEADER = [
  'id',
  'orderNumber',
  'bolNumber',
  'status',
  'refNumber',
  'createdAt',
  'pickupDate',
  'shipperName',
  'originPostalCode',
  'originCity',
  'originState',
  'consigneeName',
  'destinationPostalCode',
  'destinationCity',
  'destinationState',
  'miles',
  'pallets',
  'poundsWeight',
  'freightClasses',
  'accessorials',
  'price',
  'transitDays',
  'estimatedDeliveryDate',
  'estimatedDeliveryLocal',
  'carrier',
  'scac',
  'proNumber',
  'freightChargeTerms',
  'quoteId',
  'cancelledAt',
  'trackingStatus',
  'deliveredAt',
] as const;

export function shipmentCsvRow(stored: Shipment, zips: ZipLookup): CsvCell[] {
  // A CSV on stdout reaches terminals and logs too: no raw control characters (printable.ts).
  const shipment = printableRecord(stored);
  const timeZone = zips.lookup(shipment.deliveryAddress.zipCode)?.timeZone;
  const eta = shipment.estimatedDeliveryDate;
  const freight = freightTotals(shipment.orderComponents);
  const record: Record<(typeof SHIPMENT_CSV_HEADER)[number], CsvCell> = {
    id: shipment.id,
    orderNumber: shipment.orderNumber,
    bolNumber: shipment.bolNumber,
    status: shipment.orderStatus,
    trackingStatus: shipment.trackingStatus,
    deliveredAt: shipment.deliveredAt,
    refNumber: shipment.refNumber,
    createdAt: shipment.createdAt,
    pickupDate: shipment.requiredPickupDate,
    shipperName: shipment.pickupAddress.name,
    originPostalCode: shipment.pickupAddress.zipCode,
    originCity: shipment.pickupAddress.city,
    originState: shipment.pickupAddress.state,
    consigneeName: shipment.deliveryAddress.name,
    destinationPostalCode: shipment.deliveryAddress.zipCode,
    destinationCity: shipment.deliveryAddress.city,
    destinationState: shipment.deliveryAddress.state,
    miles: shipment.miles,
    pallets: freight.pallets,
    poundsWeight: freight.poundsWeight,
    freightClasses: [...new Set(shipment.orderComponents.map((component) => component.freightClass))].join('|'),
    accessorials: shipment.accessorials.join('|'),
    price: shipment.totalPriceInCents / 100,
    transitDays: shipment.transitDays,
    estimatedDeliveryDate: eta,
    estimatedDeliveryLocal: eta && timeZone ? localIsoInstant(eta, timeZone) : null,
    carrier: shipment.carrier?.name ?? null,
    scac: shipment.carrier?.scac ?? null,
    proNumber: shipment.proNumber,
    freightChargeTerms: shipment.freightChargeTerms?.terms ?? null,
    quoteId: shipment.quoteId,
    cancelledAt: shipment.cancelledAt,
  };
  return SHIPMENT_CSV_HEADER.map((column) => record[column]);
}
