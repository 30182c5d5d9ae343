/**
 * Reads an agreement directory (`--tariffs DIR`): one sub-directory per carrier agreement, each
 * with agreement.json, base-rates.csv, and optionally transit.csv and fuel.json (format:
 * docs/agreements.md). Every fault is reported as `<agreement>/<file>:<line>: <message>`, paths
 * relative to DIR, so `shipper tariff check` and a failed load say exactly where to look.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { z } from 'zod';
import { agreementSchema } from '../domain/agreements/agreement.js';
import { parseBaseRates } from '../domain/agreements/baseRates.js';
import { fuelTableSchema } from '../domain/agreements/fuel.js';
import type { CarrierAgreement } from '../domain/agreements/rateAgreement.js';
import { parseTransit } from '../domain/agreements/transitTable.js';
import { parseRequest } from '../domain/validation.js';
import { describeFileError } from '../fs/durableWrite.js';
import { NotRegularFileError, readRegularText } from '../fs/regularFile.js';
import { templatesDir } from '../paths.js';
import { jsonSyntaxProblem, printable } from '../printable.js';

/** `--tariffs samples`: the sample agreements shipped in templates/agreements (fictional carriers). */
export const SAMPLES_NAME = 'samples';
export const samplesDir = (): string => join(templatesDir(), 'agreements');
export const agreementsDirOf = (setting: string): string => (setting === SAMPLES_NAME ? samplesDir() : setting);

export interface AgreementFault {
  /** `<agreement>/<file>:<line>` relative to the directory. */
  where: string;
  message: string;
}

export interface AgreementDirectory {
  agreements: CarrierAgreement[];
  faults: AgreementFault[];
}

/** The line of the JSON text where the member at `path` is written (the closest key found), 1-based. */
export function lineOfJsonPath(text: string, path: ReadonlyArray<PropertyKey>): number {
  let offset = 0;
  for (const key of path) {
    if (typeof key !== 'string') continue;
    const found = text.indexOf(JSON.stringify(key), offset);
    if (found === -1) break;
    offset = found;
  }
  return text.slice(0, offset).split('\n').length;
}

/** A regular file's text; a FIFO or a device is refused (it would block or never end), a missing file is undefined. */
async function readText(file: string): Promise<string | undefined> {
  try {
    return await readRegularText(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

function parseJsonFile<S extends z.ZodType>(schema: S, text: string, where: string, faults: AgreementFault[]): z.output<S> | undefined {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    faults.push({ where: `${where}:1`, message: jsonSyntaxProblem(error, text) });
    return undefined;
  }
  const parsed = parseRequest(schema, json);
  if (parsed.ok) return parsed.value;
  for (const violation of parsed.violations) {
    // The field's names in order (`fak[0].classes[2]` -> fak, classes) find the line it is written on.
    const keys = violation.field.match(/[A-Za-z_$][\w$-]*/g) ?? [];
    faults.push({ where: `${where}:${lineOfJsonPath(text, keys)}`, message: `${violation.field}: ${violation.reason}` });
  }
  return undefined;
}

/** One agreement directory: the agreement, or its faults. */
async function loadOne(root: string, directory: string, faults: AgreementFault[]): Promise<CarrierAgreement | undefined> {
  const dir = join(root, directory);
  const name = printable(directory);
  const before = faults.length;
  const fault = (file: string, line: number, message: string) => faults.push({ where: `${name}/${file}:${line}`, message });
  const read = async (file: string): Promise<string | undefined> => {
    try {
      return await readText(join(dir, file));
    } catch (error) {
      fault(file, 1, error instanceof NotRegularFileError ? `is ${error.kind}, not a regular file: refused` : `cannot be read: ${describeFileError(error)}`);
      return undefined;
    }
  };
  const [agreementText, ratesText, transitText, fuelText] = await Promise.all(['agreement.json', 'base-rates.csv', 'transit.csv', 'fuel.json'].map(read));
  if (agreementText === undefined && faults.length === before) fault('agreement.json', 1, 'missing: every agreement has an agreement.json');
  if (ratesText === undefined && faults.length === before) fault('base-rates.csv', 1, 'missing: every agreement has a base-rates.csv');
  const agreement = agreementText === undefined ? undefined : parseJsonFile(agreementSchema, agreementText, `${name}/agreement.json`, faults);
  const fuel = fuelText === undefined ? undefined : parseJsonFile(fuelTableSchema, fuelText, `${name}/fuel.json`, faults);
  const rates = ratesText === undefined ? undefined : parseBaseRates(ratesText);
  rates?.faults.forEach((item) => fault('base-rates.csv', item.line, item.message));
  const transit = transitText === undefined ? undefined : parseTransit(transitText);
  transit?.faults.forEach((item) => fault('transit.csv', item.line, item.message));
  if (faults.length > before || !agreement || !rates) return undefined;
  return { name, agreement, baseRates: rates.table, transit: transit?.table, fuel };
}

function sharesCompany(a: CarrierAgreement, b: CarrierAgreement): boolean {
  const [first, second] = [a.agreement.companyIds, b.agreement.companyIds];
  return !first || !second || first.some((company) => second.includes(company));
}

/** Every agreement of the directory (sorted by name), and every fault found. */
export async function loadAgreementDirectory(root: string): Promise<AgreementDirectory> {
  let entries;
  try {
    entries = await readdir(root, { withFileTypes: true });
  } catch (error) {
    return { agreements: [], faults: [{ where: '.', message: `the agreement directory cannot be read: ${describeFileError(error)}` }] };
  }
  const names = entries
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'))
    .map((entry) => entry.name)
    .sort();
  const faults: AgreementFault[] = [];
  if (names.length === 0) faults.push({ where: '.', message: 'no agreement: the directory holds one sub-directory per carrier agreement' });
  const loaded: Array<CarrierAgreement | undefined> = [];
  for (const name of names) loaded.push(await loadOne(root, name, faults));
  const agreements = loaded.filter((item): item is CarrierAgreement => item !== undefined);
  // One agreement per carrier for each company: two with a SCAC are one too many unless they name
  // companies apart (an agreement without companyIds is every company's).
  agreements.forEach((item, index) => {
    const other = agreements.slice(0, index).find((earlier) => earlier.agreement.scac === item.agreement.scac && sharesCompany(earlier, item));
    if (other) {
      const whose = item.agreement.companyIds && other.agreement.companyIds ? ' for a company both name' : '';
      faults.push({
        where: `${item.name}/agreement.json:1`,
        message: `scac ${item.agreement.scac} is also the carrier of ${other.name}${whose}: one agreement per carrier and company`,
      });
    }
  });
  return { agreements, faults };
}
