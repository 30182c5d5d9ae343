/**
 * `shipper help warnings`: every warning code, its level and when it is said. The record below is
 * typed by WARNING_CODES, so a new code cannot go without its line (docs/warnings.md has the
 * freight check's thresholds and sources).
 */
import { levelOf, WARNING_CODES, type WarningCode } from '../../domain/warnings.js';
import { termList } from './wrap.js';

export const WARNING_DESCRIPTIONS: Record<WarningCode, string> = {
  DENSITY_MARGIN: 'the class changes if a dimension is measured 1 in larger or the weight 2 % lower (a dimensioner or scale reading away)',
  NON_STACKABLE_HEIGHT: 'a line marked stackable=false is classed as if 96 in high',
  WIDE_FREIGHT: 'a unit 70 in wide or wider is classed as if 96 in wide',
  CUBIC_CAPACITY: 'the shipment takes 750 cu ft or more below 6 pcf (non-stackable units cubed at 96 in): carriers charge its cube x 6 lb at class 125',
  LINEAR_FEET: 'the pallets take more than 12 ft of trailer: ask for a volume LTL or truckload quote',
  OVERLENGTH: 'a unit of 96 in or longer: the overlength band and its fee',
  NO_DESCRIPTION: 'a line without description and NMFC code: an inspector may class it 125',
  DEPRECATED_PALLET_DIMENSIONS: 'palletDimensions was sent: it is read as dimensions (also the HTTP Deprecation header)',
  BEYOND_LTL: 'more than 12 pallets, more than 20,000 lb, or a unit longer than a trailer is wide',
  ADDRESS_CITY_MISMATCH: "an address's city is not the USPS city of its ZIP",
  REFERENCE_TAKEN: 'another active shipment already has this refNumber',
  DOCUMENTATION_PREFIX: "BOL numbers are issued under GS1's documentation prefix: set your own company prefix",
  PRO_OUT_OF_BLOCK: "a PRO number outside the carrier's configured block",
  PICKUP_AFTER_CUTOFF: "the freight is ready at or after the carrier's pickup cut-off",
  NOT_CONFIRMED: 'an imported order lacks what the published confirm needs (a contact, a phone...): it was created INITIALIZED; shipment confirm confirms it once it has them',
  OVERSIZE_PALLET: 'a pallet beyond the standard 60x52x94 in (the published limit): it is charged as oversize',
  DIMENSIONS_ASSUMED: 'a line sent without dimensions: each pallet is taken as 40x48x60 in, and its class rests on that',
  RECORD_UNREADABLE: 'a damaged record was left out of a list (the message names it)',
  ZIP_PADDED: 'a CSV ZIP had lost its leading zero (a spreadsheet) and was padded',
  FILE_CHANGED: 'the CSV file changed while it was imported',
  STORE_JOURNAL_CUT: "bytes after the store journal's last whole line (never acknowledged) were cut; a copy is kept beside it (journal/cut-*.log)",
  STORE_READ_ONLY: 'the store is read-only: shipper serve answers reads and refuses writes (503), store export still exports',
  REJECTS_FILE_KEPT: 'the reject file existed: another name was used',
  MORE_WARNINGS: 'more warnings than are listed',
  TENDER_FIELD_DROPPED: 'the carrier file (eBOL, X12 204/211) has no place for a value',
  TENDER_CODE_SUBSTITUTED: 'the carrier file took a substitute code for a value',
  TENDER_TEXT_CUT: "a text was cut to the carrier file's element length",
  EBOL_INCOMPLETE: 'the carrier takes eBOLs and the shipment lacks what one needs (phones, line descriptions): shipment update adds them',
  BASE_URL_ROOT: 'the base URL named the API path: its root was used',
  API_KEY_OVER_HTTP: 'an API key is sent over plain HTTP to a host that is not this machine',
  SERVE_WITHOUT_API_KEY: 'shipper serve listens beyond this machine without an API key',
  LOCATION_NOT_SAVED: 'the wizard could not save a location',
  FILE_EXISTS: 'a file was there already and was not replaced (--force replaces it)',
  FUEL_PRICE_STALE: "the pickup's diesel index week has no price: the last one, more than 14 days old, was used",
  FUEL_PRICE_MISSING: "the pickup's diesel index week has no price (the last one before it was used), or none at all",
  FUEL_TABLE_NOT_IN_FORCE: "no version of the carrier's fuel table is in force on the pickup date: no fuel surcharge",
  AGREEMENT_NO_ACCESSORIAL: 'the carrier agreement has no charge for an accessorial asked for: the carrier is left out',
  LANE_NOT_COVERED: 'a carrier asked for gives no price on this lane',
  TRACKING_ZONE_GUESSED: "an event's place has no known time zone: its local time was read in the shipment's nearer end's",
  TRACKING_UNKNOWN_STATUS_CODE: 'a status code shipper does not know: the event is kept and leaves the tracking status as it was',
  TRACKING_MESSAGE_NOTICE: 'something about a status message that did not stop it (a repaired element, a resent message)',
  SERVER_WARNING: "a server's warning without a code (a foreign or older server)",
};

export function warningsHelp(width = 100): string {
  const rows = WARNING_CODES.map((code) => ({ term: `${code} (${levelOf(code)})`, text: WARNING_DESCRIPTIONS[code] }));
  const out = [
    'Warnings do not stop a command. Each has a stable code: stderr prints "warning: [CODE] message", --json and the',
    "API's answers carry warnings[] of {code, message, ...}. Levels: risk and warn are the freight check's (shipper check",
    '--fail-on warn|risk exits 1 on them); info is every other. Thresholds and sources: docs/warnings.md.',
    '',
    ...termList(rows, width),
    '',
    'Example:',
    '  $ shipper check shipments.csv --fail-on risk',
  ];
  return `${out.join('\n')}\n`;
}
