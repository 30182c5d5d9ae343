/**
 * The carrier flags of `ship` and `shipment update` to the API's fields: carrier and SCAC, PRO,
 * freight terms and bill-to, declared value, COD, pickup window, FOB, master BOL, emergency phone,
 * trailer and seals. Values pass through as written where the API's schema can judge them; money
 * is read here ($1,250.50 -> 125050 cents) because the flag is written in dollars.
 */
import { InvalidArgumentError, Option, type Command } from 'commander';
import { UsageError } from '../api/problems.js';
import { parseDollars } from '../domain/money.js';
import { readTimeCell } from '../import/cells.js';
import type { CommandContext } from './context.js';
import { collect, offering } from './optionParsers.js';

export interface CarrierFlags {
  carrier?: string;
  scac?: string;
  pro?: string;
  trailer?: string;
  seal?: string[];
}

export interface BookingCarrierFlags extends CarrierFlags {
  terms?: string;
  billTo?: string;
  declaredValue?: string;
  cod?: string;
  codFee?: string;
  codCheck?: boolean;
  ready?: string;
  close?: string;
  fob?: string;
  masterBol?: boolean;
  emergencyPhone?: string;
}

/** Dollars as people write them ($1,250.50, 1250.5, 1250) to whole cents; anything else is a usage error. */
export function dollarsToCents(text: string, flag: string): number {
  const reading = parseDollars(text);
  if ('problem' in reading) throw new UsageError(`${flag}: ${reading.problem}`);
  return reading.cents;
}

/** The flags both commands take. */
export function addCarrierFlags<C extends Command>(command: C): C {
  return command
    .option('--carrier <name>', 'the carrier (with --scac)')
    .option('--scac <scac>', "the carrier's SCAC, e.g. ODFL (the name comes from --carrier, else the carrier's settings)")
    .option('--pro <pro>', "the carrier's PRO number (with a PRO block configured for the SCAC, one is assigned when none is given)")
    .option('--trailer <number>', 'trailer number')
    .option('--seal <number>', 'seal number (repeat for more)', collect, []);
}

/**
 * A flag that takes one of a few words: any other is a usage error (exit 2) as for --status,
 * not a violation of the request (exit 1). Case, spaces and dashes as people write them.
 */
function oneOf(values: readonly string[]) {
  return (value: string): string => {
    const word = value
      .trim()
      .toUpperCase()
      .replace(/[\s-]+/g, '_');
    if (!values.some((allowed) => allowed.toUpperCase().replace(/-/g, '_') === word)) throw new InvalidArgumentError(`must be one of ${values.join(', ')}`);
    return value;
  };
}

/** A time of day as the CSV reads it (08:00, 8:00 AM, 0800); anything else is a usage error (exit 2). */
function timeFlag(value: string): string {
  const reading = readTimeCell(value.trim());
  if ('problem' in reading) throw new InvalidArgumentError(reading.problem);
  if (!/^([01]\d|2[0-3]):[0-5]\d$/.test(reading.value)) throw new InvalidArgumentError('a time is written HH:MM (24-hour) or with AM/PM, e.g. 08:00 or 8:00 AM');
  return reading.value;
}

/** The flags of a booking only. */
export function addBookingCarrierFlags<C extends Command>(command: C): C {
  return addCarrierFlags(command)
    .addOption(
      offering(new Option('--terms <terms>', 'freight charge terms: prepaid (default), collect or third-party (with --bill-to)'), ['prepaid', 'collect', 'third-party']).argParser(
        oneOf(['prepaid', 'collect', 'third-party']),
      ),
    )
    .option('--bill-to <name|address>', 'third-party bill-to: a saved location or an address, as --shipper')
    .option('--declared-value <amount>', 'declared value in dollars, per shipment; "2.50/lb" per pound')
    .option('--cod <amount>', 'collect on delivery, in dollars')
    .addOption(offering(new Option('--cod-fee <terms>', 'who pays the COD fee: collect (default) or prepaid'), ['collect', 'prepaid']).argParser(oneOf(['collect', 'prepaid'])))
    .option('--cod-check', 'a customer check is acceptable for the COD')
    .option('--ready <HH:MM>', 'pickup window: the freight is ready at (local time at the origin; 08:00 or 8:00 AM)', timeFlag)
    .option('--close <HH:MM>', 'pickup window: the dock closes at', timeFlag)
    .addOption(offering(new Option('--fob <point>', 'FOB box: origin or destination'), ['origin', 'destination']).argParser(oneOf(['origin', 'destination'])))
    .option('--master-bol', 'a master bill of lading with underlying bills attached')
    .option('--emergency-phone <phone>', 'emergency response telephone number (required with hazardous lines)');
}

/** The carrier of the flags: --carrier and --scac, or --scac alone with the name from the settings. */
async function carrierOf(ctx: CommandContext, flags: CarrierFlags): Promise<{ name: string; scac: string } | undefined> {
  if (flags.carrier === undefined && flags.scac === undefined) return undefined;
  if (flags.scac === undefined) throw new UsageError("--carrier needs --scac (the carrier's Standard Carrier Alpha Code, e.g. ODFL)");
  const scac = flags.scac.trim().toUpperCase();
  const name = flags.carrier ?? (await ctx.settings()).carriers[scac]?.name ?? scac;
  return { name, scac };
}

/** Fields of an update: only those the flags name (an empty --pro clears the PRO). */
export async function carrierUpdateFromFlags(ctx: CommandContext, flags: CarrierFlags): Promise<Record<string, unknown>> {
  const update: Record<string, unknown> = {};
  const carrier = await carrierOf(ctx, flags);
  if (carrier) update.carrier = carrier;
  if (flags.pro !== undefined) update.proNumber = flags.pro.trim() === '' ? null : flags.pro;
  if (flags.trailer !== undefined) update.trailerNumber = flags.trailer.trim() === '' ? null : flags.trailer;
  // `--seal ''` clears the seals as `--trailer ''` clears the trailer; a blank among real seals is the schema's to refuse.
  if (flags.seal && flags.seal.length > 0) update.sealNumbers = flags.seal.every((seal) => seal.trim() === '') ? null : flags.seal;
  return update;
}

/** Fields of a booking request. */
export async function carrierFieldsFromFlags(ctx: CommandContext, flags: BookingCarrierFlags): Promise<Record<string, unknown>> {
  const fields = await carrierUpdateFromFlags(ctx, flags);
  if (flags.terms !== undefined || flags.billTo !== undefined) {
    const terms = (flags.terms ?? (flags.billTo ? 'third-party' : 'prepaid'))
      .trim()
      .toUpperCase()
      .replace(/[\s-]+/g, '_');
    const billTo = flags.billTo !== undefined ? await (await import('./savedLocations.js')).partyAddress(ctx, flags.billTo, '--bill-to') : undefined;
    fields.freightChargeTerms = { terms, ...(billTo ? { billTo } : {}) };
  }
  if (flags.declaredValue !== undefined) {
    const [amount, per] = flags.declaredValue.split('/');
    const unit = per?.trim().toLowerCase();
    if (unit !== undefined && !['lb', 'lbs', 'pound', 'shipment'].includes(unit))
      throw new UsageError(`--declared-value ${flags.declaredValue}: per lb or per shipment, e.g. 2.50/lb`);
    fields.declaredValue = { amountInCents: dollarsToCents(amount!, '--declared-value'), per: unit && unit !== 'shipment' ? 'POUND' : 'SHIPMENT' };
  }
  if (flags.cod !== undefined) {
    fields.cod = {
      amountInCents: dollarsToCents(flags.cod, '--cod'),
      ...(flags.codFee !== undefined ? { feeTerms: flags.codFee.trim().toUpperCase() } : {}),
      ...(flags.codCheck ? { customerCheckAcceptable: true } : {}),
    };
  } else if (flags.codFee !== undefined || flags.codCheck) {
    throw new UsageError('--cod-fee and --cod-check go with --cod AMOUNT');
  }
  if (flags.ready !== undefined || flags.close !== undefined) {
    if (flags.ready === undefined || flags.close === undefined) throw new UsageError('a pickup window needs both --ready HH:MM and --close HH:MM');
    fields.pickupWindow = { readyTime: flags.ready, closeTime: flags.close };
  }
  if (flags.fob !== undefined) fields.fob = flags.fob.trim().toUpperCase();
  if (flags.masterBol) fields.masterBol = true;
  if (flags.emergencyPhone !== undefined) fields.emergencyContactPhone = flags.emergencyPhone;
  return fields;
}
