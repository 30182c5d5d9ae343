/**
 * Files as Excel and ERP exports write them, byte for byte: Windows-1252 ("CSV (Comma
 * delimited)"), UTF-16 LE with a BOM and tabs ("Unicode Text"), UTF-8 with a BOM ("CSV UTF-8").
 * The Windows-1252 bytes come from an explicit table here, not from the decoder under test.
 */

/** The Windows-1252 bytes of the characters these tests use above 0x7F (0x80-0x9F are its own; the rest equal Latin-1). */
const WINDOWS_1252: Record<string, number> = {
  '€': 0x80,
  '‚': 0x82,
  '„': 0x84,
  '…': 0x85,
  '‘': 0x91,
  '’': 0x92,
  '“': 0x93,
  '”': 0x94,
  '–': 0x96,
  '—': 0x97,
  '™': 0x99,
  Ÿ: 0x9f,
};

export function windows1252(text: string): Buffer {
  return Buffer.from(
    [...text].map((char) => {
      const code = char.codePointAt(0)!;
      if (code < 0x80 || (code >= 0xa0 && code <= 0xff)) return code;
      const byte = WINDOWS_1252[char];
      if (byte === undefined) throw new Error(`no Windows-1252 byte for ${char} in this table`);
      return byte;
    }),
  );
}

export function utf16leWithBom(text: string): Buffer {
  return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
}

export function utf16beWithBom(text: string): Buffer {
  return Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]);
}

export function utf8WithBom(text: string): Buffer {
  return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')]);
}

/** Names that arrive garbled when an encoding is read wrong: umlaut, accents, ½, the euro sign, smart quotes and dashes (cp1252's 0x80-0x9F). */
export const NAMES = {
  shipper: 'Müller GmbH',
  consignee: 'Société Générale',
  description: '½ pallet “Crème brûlée” – €12 ‘special’',
  instructions: 'Call Zoë at dock 4 — ring twice…',
} as const;

/** A header as an ERP export writes it (aliases, units), and one shipment of two rows: `cells[row][column]`. */
export const EXPORT_HEADER = [
  'PO Number',
  'Ship From Company',
  'Ship From Address',
  'Ship From City',
  'Ship From State',
  'Ship From Zip',
  'Ship To Name',
  'Ship To Address',
  'Ship To City',
  'Ship To State',
  'Ship To Zip',
  'Pickup Date',
  'Special Instructions',
  'Pallets',
  'Weight (lbs)',
  'Length (in)',
  'Width (in)',
  'Height (in)',
  'Commodity',
  'NMFC #',
  'Pieces',
];

export function exportRows(options: { weight?: string; consigneeZip?: string; pickupDate?: string; ref?: string } = {}): string[][] {
  const ref = options.ref ?? 'PO-1001';
  return [
    [
      ref,
      NAMES.shipper,
      '2100 S Halsted St',
      'Chicago',
      'IL',
      '60608',
      NAMES.consignee,
      '1 Congress St',
      'Boston',
      'MA',
      options.consigneeZip ?? '2108',
      options.pickupDate ?? '11/27/2026',
      NAMES.instructions,
      '2',
      options.weight ?? '1,200',
      '48',
      '40',
      '48',
      NAMES.description,
      '161030',
      '10',
    ],
    [ref, '', '', '', '', '', '', '', '', '', '', '', '', '1', '350', '48', '40', '36', 'Spare belts', '', '4'],
  ];
}

/** One line of a delimited file, quoted where Excel quotes (delimiter, quote, newline). */
export function excelLine(cells: string[], delimiter: string): string {
  return cells.map((cell) => (cell.includes(delimiter) || /["\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell)).join(delimiter);
}

/** A whole file's text, CRLF line ends as Excel writes them. */
export function excelText(rows: string[][], delimiter: string): string {
  return `${rows.map((cells) => excelLine(cells, delimiter)).join('\r\n')}\r\n`;
}
