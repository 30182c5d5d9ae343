/**
 * The wizard's carrier step (issue 16), asked after the addresses and only when the user wants it
 * (the default path stays as short as a quote-and-book): carrier and SCAC, PRO (checked against
 * the carrier's configured block as it is typed), freight terms with a bill-to, pickup window,
 * declared value, COD, FOB, master BOL and, per line, hazardous materials with the emergency
 * phone. Each answer is judged by the API's own schema, with its message.
 */
import type { z } from 'zod';
import { carrierSchema, codSchema, contactPhoneSchema, hazmatSchema, localTimeSchema, pickupWindowSchema, proNumberSchema } from '../../domain/carrier.js';
import type { CarrierProfiles } from '../../domain/carrierProfile.js';
import { parseDollars } from '../../domain/money.js';
import { checkProNumber } from '../../domain/proNumber.js';
import { addressSchema, type Address } from '../../domain/schemas.js';
import type { SavedLocation } from '../../store/locations.js';
import { readTimeCell, timeOfDay } from '../../import/cells.js';
import { plural } from '../output.js';
import type { ZipPlaceName } from '../../domain/addressZip.js';
import type { ZipLookup } from '../../domain/zipCode.js';
import type { Prompter, Validation } from './prompter.js';
import { addressStateProblem } from './answers.js';
import type { LocationDirectory } from './deps.js';

export interface CarrierStepDeps {
  prompter: Prompter;
  locations: LocationDirectory;
  /** The carriers' settings: names by SCAC, PRO blocks, cut-offs. */
  carriers: CarrierProfiles;
  info: (line: string) => void;
  /** The ZIP directory: a typed bill-to's state is checked against its ZIP. */
  zips?: ZipLookup<ZipPlaceName> | undefined;
}

export interface CarrierAnswers {
  /** Shipment-level fields of the request. */
  fields: Record<string, unknown>;
  /** The order components, hazardous ones with their `hazmat`. */
  components: Array<Record<string, unknown>>;
}

/** The schema's verdict on one answer: true, or its message with the field path. */
export function schemaProblem(schema: z.ZodType, value: unknown, field: string): Validation {
  const result = schema.safeParse(value);
  if (result.success) return true;
  const issue = result.error.issues[0];
  const path = issue && issue.path.length > 0 ? `${field}.${issue.path.join('.')}` : field;
  return `${(issue?.message ?? 'is not valid').replace(/^Invalid input: /, '')} (${path})`;
}

/** A PRO as typed: the schema's form, then the carrier's block (length, prefix, check digit) when one is configured. */
export function proProblem(value: string, scac: string | undefined, carriers: CarrierProfiles): Validation {
  if (value.trim() === '') return true;
  const form = schemaProblem(proNumberSchema, value, 'proNumber');
  if (form !== true) return form;
  const range = scac ? carriers[scac]?.proRange : undefined;
  if (!range) return true;
  const check = checkProNumber(value, range);
  return check.ok ? true : `${check.message} (proNumber)`;
}

const optional = (validate: (value: string) => Validation) => (value: string) => (value.trim() === '' ? true : validate(value));

function dollarsProblem(value: string, field: string, schema: z.ZodType): Validation {
  const reading = parseDollars(value);
  if ('problem' in reading) return `${reading.problem} (${field})`;
  return schemaProblem(schema, reading.cents, field);
}

const AMOUNT = codSchema.shape.amountInCents;

function timeProblem(value: string, judge: (time: string) => Validation): Validation {
  const reading = readTimeCell(value.trim());
  return 'problem' in reading ? `${reading.problem} (pickupWindow)` : judge(reading.value);
}

export async function askCarrierDetails(deps: CarrierStepDeps, components: ReadonlyArray<Record<string, unknown>>): Promise<CarrierAnswers> {
  const { prompter, carriers } = deps;
  const fields: Record<string, unknown> = {};
  const ask = (message: string, validate: (value: string) => Validation, preset?: string) => prompter.input({ message, validate, default: preset }).then((value) => value.trim());

  const scac = (
    await ask(
      'Carrier SCAC, e.g. ODFL (Enter to skip)',
      optional((value) => schemaProblem(carrierSchema.shape.scac, value, 'carrier.scac')),
    )
  ).toUpperCase();
  if (scac) {
    const name = await ask('Carrier name', (value) => schemaProblem(carrierSchema.shape.name, value, 'carrier.name'), carriers[scac]?.name ?? scac);
    fields.carrier = { name, scac };
  }
  const block = scac ? carriers[scac]?.proRange : undefined;
  const pro = await ask(block ? `PRO number (Enter: the next of ${scac}'s block)` : 'PRO number (Enter to skip)', (value) => proProblem(value, scac || undefined, carriers));
  if (pro) fields.proNumber = pro;

  const terms = await prompter.select<'PREPAID' | 'COLLECT' | 'THIRD_PARTY'>({
    message: 'Freight charges',
    choices: [
      { name: 'Prepaid (the shipper pays)', value: 'PREPAID', short: 'Prepaid' },
      { name: 'Collect (the consignee pays)', value: 'COLLECT', short: 'Collect' },
      { name: 'Third party (bill to another address)', value: 'THIRD_PARTY', short: 'Third party' },
    ],
    default: 'PREPAID',
  });
  if (terms !== 'PREPAID') fields.freightChargeTerms = { terms, ...(terms === 'THIRD_PARTY' ? { billTo: await askBillTo(deps) } : {}) };

  // Times as the CSV reads them: 8:00 AM, 2:30 PM, 0800, 14:30 (readTimeCell), then the schema's HH:MM.
  const readyTime = timeOfDay(
    await ask(
      'Freight ready at, e.g. 08:00 or 8:00 AM, local time (Enter to skip the pickup window)',
      optional((value) => timeProblem(value, (time) => schemaProblem(localTimeSchema, time, 'pickupWindow.readyTime'))),
    ),
  );
  if (readyTime) {
    const closeTime = timeOfDay(
      await ask('Dock closes at, e.g. 16:30 or 4:30 PM', (value) =>
        timeProblem(value, (time) => schemaProblem(pickupWindowSchema, { readyTime, closeTime: time }, 'pickupWindow')),
      ),
    );
    fields.pickupWindow = { readyTime, closeTime };
  }

  const declared = await ask(
    'Declared value in dollars, per shipment (Enter to skip)',
    optional((value) => dollarsProblem(value, 'declaredValue.amountInCents', AMOUNT)),
  );
  if (declared) fields.declaredValue = { amountInCents: (parseDollars(declared) as { cents: number }).cents, per: 'SHIPMENT' };

  const cod = await ask(
    'COD amount in dollars (Enter for no COD)',
    optional((value) => dollarsProblem(value, 'cod.amountInCents', AMOUNT)),
  );
  if (cod) {
    const feeTerms = await prompter.select<'COLLECT' | 'PREPAID'>({
      message: 'COD fee paid by',
      choices: [
        { name: 'the consignee (collect)', value: 'COLLECT', short: 'Collect' },
        { name: 'the shipper (prepaid)', value: 'PREPAID', short: 'Prepaid' },
      ],
      default: 'COLLECT',
    });
    const customerCheckAcceptable = await prompter.confirm({ message: 'Customer check acceptable?', default: false });
    fields.cod = { amountInCents: (parseDollars(cod) as { cents: number }).cents, feeTerms, customerCheckAcceptable };
  }

  const fob = await prompter.select<'ORIGIN' | 'DESTINATION' | null>({
    message: 'FOB',
    choices: [
      { name: 'not marked', value: null, short: 'not marked' },
      { name: 'Origin (ship from)', value: 'ORIGIN', short: 'Origin' },
      { name: 'Destination (ship to)', value: 'DESTINATION', short: 'Destination' },
    ],
    default: null,
  });
  if (fob) fields.fob = fob;
  if (await prompter.confirm({ message: 'Master bill of lading (underlying bills attached)?', default: false })) fields.masterBol = true;

  const withHazmat = await askHazmat(deps, components);
  if (withHazmat.some((component) => component.hazmat)) {
    fields.emergencyContactPhone = await ask('Emergency response phone, 24 hours (49 CFR 172.604)', (value) =>
      value.trim() === ''
        ? 'an emergency response telephone number is required with hazardous lines (emergencyContactPhone)'
        : schemaProblem(contactPhoneSchema, value, 'emergencyContactPhone'),
    );
  }
  return { fields, components: withHazmat };
}

/** Which lines are hazardous, and the basic description of each. */
async function askHazmat(deps: CarrierStepDeps, components: ReadonlyArray<Record<string, unknown>>): Promise<Array<Record<string, unknown>>> {
  const { prompter, info } = deps;
  const lineName = (component: Record<string, unknown>, index: number) =>
    `Line ${index + 1}: ${plural(Number(component.palletCount), 'pallet')}, ${component.poundsWeight} lb${component.description ? `, ${String(component.description)}` : ''}`;
  const hazardous = new Set(
    await prompter.checkbox<number>({
      message: 'Hazardous materials: which lines? (space to select, Enter for none)',
      choices: components.map((component, index) => ({ name: lineName(component, index), value: index, short: `line ${index + 1}` })),
    }),
  );
  const result: Array<Record<string, unknown>> = [];
  for (const [index, component] of components.entries()) {
    if (!hazardous.has(index)) {
      result.push({ ...component });
      continue;
    }
    info(`Line ${index + 1}: hazardous material (basic description, 49 CFR 172.202)`);
    const field = `orderComponents[${index}].hazmat`;
    const shape = hazmatSchema.shape;
    const ask = (message: string, key: keyof typeof shape) =>
      prompter.input({ message: `Line ${index + 1}: ${message}`, validate: (value) => schemaProblem(shape[key], value, `${field}.${key}`) }).then((value) => value.trim());
    const unNumber = (await ask('UN/NA number, e.g. UN1263', 'unNumber')).toUpperCase().replace(/\s+/g, '');
    const properShippingName = await ask('proper shipping name, e.g. Paint', 'properShippingName');
    const hazardClass = await ask('hazard class or division, e.g. 3', 'hazardClass');
    const packingGroup = await prompter.select<'I' | 'II' | 'III' | null>({
      message: `Line ${index + 1}: packing group`,
      choices: [
        { name: 'I (great danger)', value: 'I', short: 'I' },
        { name: 'II (medium danger)', value: 'II', short: 'II' },
        { name: 'III (minor danger)', value: 'III', short: 'III' },
        { name: 'none (classes 2 and 7, some others)', value: null, short: 'none' },
      ],
    });
    result.push({ ...component, hazmat: { unNumber, properShippingName, hazardClass, packingGroup } });
  }
  return result;
}

/** A saved location (any ZIP: a bill-to is not on the lane) or a new address. */
async function askBillTo(deps: CarrierStepDeps): Promise<Address> {
  const { prompter } = deps;
  const saved = await deps.locations.list();
  if (saved.length > 0) {
    const choice = await prompter.select<SavedLocation | null>({
      message: 'Bill to',
      choices: [
        ...saved.map((location) => ({ name: `${location.name}: ${location.address.name}, ${location.address.city}, ${location.address.state}`, value: location })),
        { name: 'Enter a new address', value: null },
      ],
    });
    if (choice) return choice.address;
  }
  const ask = (field: keyof typeof addressSchema.shape, message: string, preset?: string, check?: (value: string) => Validation) =>
    prompter
      .input({
        message: `Bill to: ${message}`,
        default: preset,
        validate: (value) => {
          const form = schemaProblem(addressSchema.shape[field], value.trim(), `freightChargeTerms.billTo.${field}`);
          return form === true && check ? check(value.trim()) : form;
        },
      })
      .then((value) => value.trim());
  const name = await ask('name', 'company name');
  const address1 = await ask('address1', 'street');
  // The ZIP first: its place is the default city and state, and the state must agree with it (as the API checks).
  const zipCode = await ask('zipCode', 'ZIP');
  const place = deps.zips?.lookup(zipCode);
  const city = await ask('city', 'city', place?.city);
  const state = (await ask('state', 'state', place?.state, (value) => (place ? addressStateProblem(value, place, 'freightChargeTerms.billTo') : true))).toUpperCase();
  return addressSchema.parse({ name, address1, city, state, zipCode, countryCode: 'US' });
}
