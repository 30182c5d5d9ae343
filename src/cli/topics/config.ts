/**
 * `shipper help settings` (and `shipper config --help`): every setting `shipper config set` takes,
 * each with what it does. Kept apart from SETTING_KINDS (config/settingKinds.ts) so help loads no zod;
 * a test checks that both name the same keys.
 */
import { termList } from './wrap.js';

/** What each setting does, in the order of SETTING_KINDS. */
export const SETTING_DESCRIPTIONS: Readonly<Record<string, string>> = {
  mode: 'local or remote: where commands go without --remote/--local (env SHIPPER_MODE)',
  profile: 'the profile remote mode uses (default production; env SHIPPER_PROFILE)',
  store: 'where the local engine keeps its records: a directory, or a PostgreSQL URL (postgres://user@host/db; the password never shown) (--store and SHIPPER_STORE beat it)',
  tariff: 'the tariff JSON the local engine rates with without carrier agreements (--tariff, SHIPPER_TARIFF beat it)',
  tariffs: 'the directory of carrier agreements, one sub-directory per agreement; samples names the shipped samples (--tariffs, SHIPPER_TARIFFS beat it)',
  timeoutMs: 'remote timeout of one attempt, in ms (100-600000; default 30000)',
  retries: 'remote retries of a failed attempt (0-10; default 2)',
  service: "what the remote server offers: published (Oway's operations alone) or serve (shipper serve's extensions too); default published on oway.io, serve elsewhere",
  bolCompanyPrefix: 'your GS1 company prefix (7-10 digits): BOL numbers and SSCCs are issued under it',
  ssccExtensionDigit: 'the extension digit (0-9) of the SSCCs on pallet labels',
  'carriers.<SCAC>': 'what you know of a carrier, as JSON: name, PRO block, pickup cut-off, X12 ids, tender formats',
  x12: 'your X12 interchange settings, as JSON: sender id and qualifier, usage (test or production)',
  ebol: 'your eBOL 2.1 settings, as JSON',
  'print.bol': 'the printer of BOLs with --print: a printer of shipper printer list, a spooler queue (default: the system default queue)',
  'print.labels': 'the printer of pallet labels with --print: a printer of shipper printer list, a queue, or tcp://HOST[:PORT] (raw ZPL)',
  'print.invoice': 'the printer of invoices with --print',
  'print.dispute': 'the printer of dispute packs with --print',
  'print.timeoutMs': 'how long a printer or the spooler may keep a document waiting, in ms (100-600000; default 10000; env SHIPPER_PRINT_TIMEOUT_MS)',
  'profiles.<profile>.baseUrl': 'the base URL of a remote profile (sandbox and production have defaults)',
  'profiles.<profile>.apiKey': 'the API key of a remote profile (`-` reads it from stdin; never printed)',
  'profiles.<profile>.clientId': 'the client id of a remote profile (shipper auth login saves it)',
  'profiles.<profile>.clientSecret': 'the client secret of a remote profile (shipper auth login saves it; never printed)',
};

/** The settings, one per line with what it does: `shipper config --help` and `shipper help settings`. */
export function settingsList(width = 100): string[] {
  const rows = Object.entries(SETTING_DESCRIPTIONS).map(([term, text]) => ({ term, text }));
  rows.push({ term: 'baseUrl, apiKey', text: 'the same as profiles.<profile>.baseUrl and .apiKey, for the profile in effect' });
  return termList(rows, width);
}

export function settingsHelp(width = 100): string {
  const out = [
    'Settings of shipper config set. Flags beat the environment (shipper help environment), which beats these, which beat the defaults.',
    '',
    ...settingsList(width),
    '',
    'Examples:',
    '  $ shipper config set store /srv/shipper',
    '  $ shipper config set carriers.ODFL \'{"name": "Old Dominion"}\'',
    '  $ shipper config list --json',
  ];
  return `${out.join('\n')}\n`;
}
