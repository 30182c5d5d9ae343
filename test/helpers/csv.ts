/** Shipment CSVs for the import tests. */

export const HEADER = [
  'refNumber',
  'shipperName',
  'shipperStreet1',
  'shipperCity',
  'shipperState',
  'shipperPostalCode',
  'consigneeName',
  'consigneeStreet1',
  'consigneeCity',
  'consigneeState',
  'consigneePostalCode',
  'palletCount',
  'poundsWeight',
  'length',
  'width',
  'height',
  'description',
  'nmfcCode',
  'packagingType',
  'pieceCount',
];

const SHIPPER = ['Acme Chicago DC', '2100 S Halsted St', 'Chicago', 'IL', '60608'];
const CONSIGNEES = [
  ['Store 12', '1 Penn Plaza', 'New York', 'NY', '10001'],
  ['Peachtree Supply', '400 Peachtree St NE', 'Atlanta', 'GA', '30308'],
  ['Harbor Foods', '55 Harbor Way', 'Long Beach', 'CA', '90802'],
];

/** Cells of one row: the first row of a shipment carries the addresses, later rows only freight. */
export function rowCells(
  ref: string,
  first: boolean,
  component: Partial<Record<'pallets' | 'weight' | 'length' | 'width' | 'height' | 'desc' | 'nmfc' | 'pkg' | 'pieces', string>> = {},
  consignee = 0,
): string[] {
  const to = CONSIGNEES[consignee % CONSIGNEES.length]!;
  return [
    ref,
    ...(first ? SHIPPER : ['', '', '', '', '']),
    ...(first ? to : ['', '', '', '', '']),
    component.pallets ?? '1',
    component.weight ?? '500',
    component.length ?? '48',
    component.width ?? '40',
    component.height ?? '48',
    component.desc ?? 'Machine parts',
    component.nmfc ?? '',
    component.pkg ?? 'crates',
    component.pieces ?? '4',
  ];
}

export function csvLine(cells: string[], delimiter = ','): string {
  return cells.map((cell) => (/[",;\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell)).join(delimiter);
}

/** The columns of the stops' contacts and phones: what the published confirm needs (import confirms the orders that have them). */
export const CONTACT_HEADER = ['shipperContactName', 'shipperPhone', 'consigneeContactName', 'consigneePhone'];
const CONTACT_CELLS = ['Dana Ruiz', '312-555-0100', 'Lee Chen', '212-555-0188'];

/** `shipments` shipments of `rowsEach` rows, refs `${prefix}-0001`...; `contacts`: with CONTACT_HEADER's columns filled on each first row. */
export function shipmentsCsv(shipments: number, rowsEach = 2, prefix = 'PO', options: { contacts?: boolean } = {}): string {
  const lines = [csvLine([...HEADER, ...(options.contacts ? CONTACT_HEADER : [])])];
  for (let s = 0; s < shipments; s++) {
    for (let r = 0; r < rowsEach; r++) {
      const cells = rowCells(`${prefix}-${String(s + 1).padStart(4, '0')}`, r === 0, { weight: String(300 + ((s * 37 + r * 11) % 900)), pieces: String(r) }, s);
      lines.push(csvLine([...cells, ...(options.contacts ? (r === 0 ? CONTACT_CELLS : ['', '', '', '']) : [])]));
    }
  }
  return `${lines.join('\n')}\n`;
}
