/** `shipper location add|list|show|remove`: named shipper/consignee addresses for `--shipper NAME` and CSV imports. */
import { Option, type Command } from 'commander';
import { printableRecord } from '../../printable.js';
import { conflict, constraintViolation, makeProblem } from '../../api/problems.js';
import { checkAddressAgainstZip } from '../../domain/addressZip.js';
import { violationsFromZod } from '../../domain/validation.js';
import type { AddressInput } from '../../domain/schemas.js';
import { isZipCode } from '../../domain/zipCode.js';
import type { SavedLocation } from '../../store/locations.js';
import type { CommandContext } from '../context.js';
import type { IO } from '../output.js';
import type { ContextFactory } from '../context.js';
import type { ShipperCommand } from '../examples.js';

export interface LocationAddOptions {
  name?: string;
  street1?: string;
  street2?: string;
  /** The published names of --street1 and --street2 (hidden aliases). */
  address1?: string;
  address2?: string;
  city?: string;
  state?: string;
  zip?: string;
  country?: string;
  contact?: string;
  phone?: string;
  replace?: boolean;
}

export async function runLocationAdd(ctx: CommandContext, locationName: string, options: LocationAddOptions): Promise<void> {
  const book = await ctx.locations();
  const address = {
    name: options.name,
    address1: options.street1 ?? options.address1,
    address2: options.street2 ?? options.address2,
    city: options.city,
    state: options.state,
    zipCode: options.zip,
    countryCode: options.country,
    contactPerson: options.contact,
    phoneNumber: options.phone,
  };
  // The address schema checks the ZIP's form; whether it exists, and agrees with the city and state,
  // is known here from the geodata, by the rules the API applies to a shipment's addresses.
  const place = await zipPlace(ctx, address.zipCode, address.countryCode);
  const againstZip = place ? checkAddressAgainstZip(address, place, '') : { violations: [], warnings: [] };
  const zipViolations = place === null ? [{ field: 'zipCode', reason: `unknown ZIP ${address.zipCode?.trim()}` }] : againstZip.violations;
  // Raw flags: the API's address schema decides what is valid and names the field.
  const checked = book.check(locationName, address as unknown as AddressInput);
  if (!checked.ok || zipViolations.length > 0) {
    // Paths are `address.zipCode`; the user typed the flags, so name the fields as the API does.
    const violations = (checked.ok ? [] : violationsFromZod(checked.issues)).map((violation) => ({
      field: violation.field === 'name' ? 'location name' : violation.field.replace(/^address\./, ''),
      reason: violation.reason,
    }));
    throw constraintViolation([...violations, ...zipViolations], `the location ${locationName} is not valid`);
  }
  if (!options.replace && (await book.get(locationName))) {
    throw conflict(`a location named ${locationName} exists already; add --replace to overwrite it`);
  }
  await book.put(checked.location);
  ctx.io.warnAll(againstZip.warnings);
  if (ctx.io.options.json) return ctx.io.json(checked.location);
  if (ctx.io.options.quiet) return ctx.io.out(checked.location.name);
  ctx.io.info(`Saved location ${checked.location.name}: ${oneLine(checked.location)}`);
}

/** The place of a US ZIP; null when it is well-formed but unknown; undefined when there is nothing to look up. */
async function zipPlace(ctx: CommandContext, zip: string | undefined, country: string | undefined) {
  const trimmed = zip?.trim() ?? '';
  if ((country !== undefined && country.trim().toUpperCase() !== 'US') || !isZipCode(trimmed)) return undefined;
  return (await ctx.zips()).lookup(trimmed) ?? null;
}

export async function runLocationList(ctx: CommandContext): Promise<void> {
  const locations = await (await ctx.locations()).list();
  if (ctx.io.options.json) return ctx.io.json(locations);
  // -q: the names, one per line, as the other lists print their ids.
  if (ctx.io.options.quiet) return locations.forEach((location) => ctx.io.out(location.name));
  if (locations.length === 0) {
    return ctx.io.info('No saved locations. Add one with\n  shipper location add NAME --name COMPANY --street1 STREET \\\n      --city CITY --state ST --zip ZIP');
  }
  ctx.io.out(
    ctx.io.fittedTable(
      ['Name', 'Company', 'Address', 'Contact', 'Phone'],
      // Saved before control characters were refused: shown as escapes (printable.ts).
      locations
        .map(printableRecord)
        .map((location) => [location.name, location.address.name, streetLine(location), location.address.contactPerson ?? '', location.address.phoneNumber ?? '']),
      // On a narrow terminal the address and the company give way, then phone and contact leave
      // (location show has them); the name, what commands take, is never cut.
      [{ shrink: [2], min: 28 }, { shrink: [1], min: 16 }, { drop: 4 }, { drop: 3 }, { shrink: [2], min: 12 }, { shrink: [1], min: 8 }],
    ),
  );
}

export async function runLocationShow(ctx: CommandContext, locationName: string): Promise<void> {
  const location = await (await ctx.locations()).get(locationName);
  if (!location) throw unknownLocation(locationName);
  if (ctx.io.options.json) return ctx.io.json(location);
  printLocation(ctx.io, location);
}

export async function runLocationRemove(ctx: CommandContext, locationName: string): Promise<void> {
  const removed = await (await ctx.locations()).remove(locationName);
  if (!removed) throw unknownLocation(locationName);
  if (ctx.io.options.json) return ctx.io.json({ name: locationName, removed: true });
  ctx.io.info(`Removed location ${locationName}`);
}

/** A ProblemDetail like the API's own 404, so that --json prints it on stdout. */
function unknownLocation(name: string) {
  return makeProblem(404, 'not-found', 'Not Found', `no saved location named ${name}; see \`shipper location list\``);
}

function streetLine(location: SavedLocation): string {
  const { address } = location;
  return [address.address1, address.address2, `${address.city}, ${address.state} ${address.zipCode}`].filter(Boolean).join(', ');
}

function oneLine(location: SavedLocation): string {
  return `${location.address.name}, ${streetLine(location)}`;
}

function printLocation(io: IO, saved: SavedLocation): void {
  const location = printableRecord(saved);
  const { address } = location;
  io.out(`${io.color.bold('Location')} ${location.name}`);
  io.out(`  ${address.name}`);
  io.out(`  ${address.address1}`);
  if (address.address2) io.out(`  ${address.address2}`);
  io.out(`  ${address.city}, ${address.state} ${address.zipCode} ${address.countryCode}`);
  if (address.contactPerson || address.phoneNumber) io.out(`  Contact: ${[address.contactPerson, address.phoneNumber].filter(Boolean).join(', ')}`);
}

export function registerLocationCommands(program: ShipperCommand, context: ContextFactory): void {
  const location = program
    .command('location')
    .description('saved shipper/consignee addresses, used as --shipper NAME / --consignee NAME and in CSV imports')
    .examples(
      'shipper location add chicago-dc --name "Acme Chicago DC" --street1 "2100 S Halsted St" --city Chicago --state IL --zip 60608',
      'shipper location list',
      'shipper location show chicago-dc --json',
      'shipper ship --quote <quote-id> --shipper chicago-dc --consignee nyc-store',
    );

  location
    .command('add <name>')
    .description('save an address under a name (letters, digits, - and _)')
    .option('--name <company>', 'company or site name printed on the BOL')
    .option('--street1 <street>', 'street address (or --address1, its published name)')
    .option('--street2 <line>', 'second address line (or --address2)')
    .addOption(new Option('--address1 <street>').hideHelp())
    .addOption(new Option('--address2 <line>').hideHelp())
    .option('--city <city>', 'city')
    .option('--state <state>', '2-letter state code')
    .option('--zip <zip>', 'ZIP code')
    .option('--country <code>', 'country code (US)')
    .option('--contact <name>', 'contact person')
    .option('--phone <phone>', 'contact phone')
    .option('--replace', 'overwrite a location of the same name')
    .examples(
      'shipper location add chicago-dc --name "Acme Chicago DC" --street1 "2100 S Halsted St" --city Chicago --state IL --zip 60608 --contact "Dana Ruiz" --phone 312-555-0100',
      'shipper ship --shipper chicago-dc --consignee nyc-store --component pallets=2,weight=1200,dims=48x40x48',
    )
    .action(async (name: string, options: LocationAddOptions, command: Command) => runLocationAdd(context(command), name, options));

  location
    .command('list')
    .description('list saved locations')
    .examples('shipper location list --json')
    .action(async (_options: unknown, command: Command) => runLocationList(context(command)));

  location
    .command('show <name>')
    .description('show a saved location')
    .examples('shipper location show chicago-dc')
    .action(async (name: string, _options: unknown, command: Command) => runLocationShow(context(command), name));

  location
    .command('remove <name>')
    .alias('rm')
    .description('delete a saved location (shipments booked with it keep their address)')
    .examples('shipper location remove chicago-dc')
    .action(async (name: string, _options: unknown, command: Command) => runLocationRemove(context(command), name));
}
