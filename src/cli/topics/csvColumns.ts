/** `shipper help csv-columns`: the importer's own column and alias tables, so the help is what the importer reads. */
import { ADDRESS_FIELD_ALIASES, ADDRESS_FIELDS, COLUMN_ALIASES, COLUMNS, PARTY_ALIASES, REFUSED_HEADERS, addressColumn } from '../../import/columns.js';
import { termList } from './wrap.js';

const LEVEL_TITLES = { shipment: 'Shipment columns (one value per shipment)', component: 'Freight-line columns (one row per order component)' } as const;

export function csvColumnsHelp(width = 100): string {
  const aliasesOf = new Map(COLUMN_ALIASES.map((entry) => [entry.column, entry.aliases]));
  const out = [
    'Columns of shipper import. Header names match case-insensitively, ignoring spaces, punctuation and units in',
    'parentheses; consecutive rows with the same refNumber (or shipmentKey) form one shipment.',
  ];
  for (const level of ['shipment', 'component'] as const) {
    out.push('', `${LEVEL_TITLES[level]}:`);
    const rows = COLUMNS.filter((column) => column.level === level).map((column) => {
      const aliases = aliasesOf.get(column.name) ?? [];
      return { term: column.name, text: aliases.length > 0 ? `also: ${aliases.join(', ')}` : '-' };
    });
    out.push(...termList(rows, width));
  }
  out.push('', 'Addresses: a column shipper, consignee or billTo names a saved location; or one column per field:');
  out.push(
    ...termList(
      ADDRESS_FIELDS.map((field) => ({
        term: `${addressColumn('shipper', field)}, ${addressColumn('consignee', field)}`,
        text: `also: <party> ${ADDRESS_FIELD_ALIASES[field].join(', ')}`,
      })),
      width,
    ),
  );
  out.push(
    ...termList(
      (Object.keys(PARTY_ALIASES) as Array<keyof typeof PARTY_ALIASES>).map((party) => ({ term: `<party> ${party}`, text: PARTY_ALIASES[party].join(', ') })),
      width,
    ),
  );
  out.push('', 'Refused rather than guessed (the import says what to write instead):');
  out.push(
    ...termList(
      REFUSED_HEADERS.filter((refused) => refused.names.length > 0).map((refused) => ({ term: refused.names.join(', '), text: refused.message })),
      width,
    ),
  );
  out.push('', 'Example:', '  $ shipper import templates/import/shipments-sample.csv --dry-run');
  return `${out.join('\n')}\n`;
}
