/**
 * The wizard after the quote: book it (reference, addresses from saved locations or typed, the
 * carrier step when wanted), then print its BOL.
 */
import { CliError, ProblemError, problemLine } from '../../api/problems.js';
import { asShipperError } from '../errors.js';
import { warning } from '../../domain/warnings.js';
import { addressSchema, type Address, type OrderComponentInput, type Quote, type Shipment, shipmentRequestSchema } from '../../domain/schemas.js';
import { locationNameSchema, type SavedLocation } from '../../store/locations.js';
import { formatCents, formatDate, formatInstant } from '../output.js';
import { addressFieldProblem, addressStateProblem } from './answers.js';
import { askCarrierDetails } from './carrierSteps.js';
import type { WizardDeps } from './deps.js';

// -----------------------------------------------------------------------------------------------
// Booking

interface AddressAnswer {
  address: Address;
  /** A name to save the new address under once the booking succeeded. */
  saveAs: string | null;
}

export async function askAndBook(deps: WizardDeps, quote: Quote, orderComponents: Array<Record<string, unknown>>): Promise<Shipment | undefined> {
  const { prompter, io } = deps;
  if (!(await prompter.confirm({ message: `Book this shipment at ${formatCents(quote.quotedPriceInCents)}?`, default: false }))) {
    io.info(`Quote ${quote.id} is saved; book it later with: shipper ship --quote ${quote.id} ...`);
    return undefined;
  }
  const refNumber = (
    await prompter.input({
      message: 'Your reference, e.g. a PO number (optional)',
      validate: (value) => {
        const result = shipmentRequestSchema.unwrap().shape.refNumber.safeParse(value);
        return result.success ? true : `${result.error.issues[0]?.message} (refNumber)`;
      },
    })
  ).trim();
  const shipper = await askAddress(deps, 'shipper', quote.pickupAddress);
  const consignee = await askAddress(deps, 'consignee', quote.deliveryAddress);
  // The carrier's part is asked only when wanted: most bookings print it on the BOL later, or never.
  const carrier = (await prompter.confirm({ message: 'Add carrier details (carrier, PRO, freight terms, pickup window, COD, hazardous materials)?', default: false }))
    ? await askCarrierDetails(
        { prompter, locations: deps.locations, carriers: deps.carriers ?? {}, zips: deps.zips, info: (line) => io.info(io.color.bold(line)) },
        orderComponents,
      )
    : { fields: {}, components: orderComponents };

  const created = await deps.api.createShipment({
    quoteId: quote.id,
    ...(refNumber ? { refNumber } : {}),
    pickupAddress: shipper.address,
    deliveryAddress: consignee.address,
    ...carrier.fields,
    orderComponents: carrier.components as OrderComponentInput[],
  } as Parameters<WizardDeps['api']['createShipment']>[0]);
  let shipment = created.data;
  io.warnAll(created.warnings);
  // Confirmed as `shipper ship` confirms, when the order has what the published confirm needs (the
  // contacts and phones asked above are optional): otherwise it stays INITIALIZED, said below.
  const { confirmViolations } = await import('../../domain/confirmChecks.js');
  const lacking = confirmViolations(shipment);
  if (lacking.length === 0) shipment = (await deps.api.confirmShipment(shipment.orderNumber)).data;
  for (const { saveAs, address } of [shipper, consignee]) {
    if (!saveAs) continue;
    try {
      await deps.locations.save(saveAs, address);
      io.info(`Saved location ${saveAs}`);
    } catch (error) {
      io.warn(warning('LOCATION_NOT_SAVED', `location ${saveAs} was not saved: ${(error as Error).message}`));
    }
  }
  const c = io.color;
  io.out('');
  io.out(`${c.bold.green('Booked')} ${c.bold(shipment.orderNumber)}  BOL ${shipment.bolNumber}  (shipment ${shipment.id})  ${shipment.orderStatus}`);
  if (shipment.orderStatus === 'INITIALIZED') {
    io.out(
      `  Not confirmed: it lacks ${lacking.map((violation) => violation.field).join(', ')}; add them with shipper shipment update ${shipment.orderNumber}, then shipper shipment confirm ${shipment.orderNumber}`,
    );
  }
  if (shipment.carrier || shipment.proNumber)
    io.out(
      `  Carrier ${[shipment.carrier ? `${shipment.carrier.name} (${shipment.carrier.scac})` : null, shipment.proNumber ? `PRO ${shipment.proNumber}` : null].filter(Boolean).join(' · ')}`,
    );
  io.out(
    `  Pickup ${formatDate(shipment.requiredPickupDate)}${shipment.estimatedDeliveryDate ? ` · ETA ${formatInstant(shipment.estimatedDeliveryDate, deps.zips.lookup(shipment.deliveryAddress.zipCode)?.timeZone)}` : ''}`,
  );
  return shipment;
}

async function askAddress(deps: WizardDeps, role: 'shipper' | 'consignee', place: Quote['pickupAddress']): Promise<AddressAnswer> {
  const { prompter, io } = deps;
  const label = role === 'shipper' ? 'Ship from' : 'Ship to';
  // Only locations on the quoted lane can be booked against this quote.
  const saved = (await deps.locations.list()).filter((location) => location.address.zipCode === place.zipCode);
  if (saved.length > 0) {
    const choice = await prompter.select<SavedLocation | null>({
      message: `${label} (${place.city}, ${place.state} ${place.zipCode})`,
      choices: [
        ...saved.map((location) => ({
          name: `${location.name}: ${location.address.name}, ${location.address.address1}, ${location.address.city}`,
          value: location,
        })),
        { name: 'Enter a new address', value: null },
      ],
    });
    if (choice) return { address: choice.address, saveAs: null };
  } else {
    io.info(io.color.bold(`${label} (${place.city}, ${place.state} ${place.zipCode})`));
  }
  const path = role === 'shipper' ? 'pickupAddress' : 'deliveryAddress';
  const ask = (field: keyof typeof addressSchema.shape, message: string, preset?: string) =>
    prompter.input({ message: `${label}: ${message}`, default: preset, validate: (value) => addressFieldProblem(field, value, path) }).then((value) => value.trim());
  const name = await ask('name', 'company name');
  const address1 = await ask('address1', 'street');
  const address2 = await ask('address2', 'street line 2 (optional)');
  const city = await ask('city', 'city', place.city);
  const state = (await prompter.input({ message: `${label}: state`, default: place.state, validate: (value) => addressStateProblem(value, place, path) })).trim().toUpperCase();
  const contactPerson = await ask('contactPerson', 'contact name (optional)');
  const phone = await ask('phoneNumber', 'phone (optional)');
  const address = addressSchema.parse({
    name,
    address1,
    address2: address2 || null,
    city,
    state,
    zipCode: place.zipCode,
    countryCode: 'US',
    contactPerson: contactPerson || null,
    phoneNumber: phone || null,
  });
  const saveAs = (
    await prompter.input({
      message: `Save this address for next time? Location name (Enter to skip)`,
      validate: async (value) => {
        const text = value.trim();
        if (text === '') return true;
        const check = locationNameSchema.safeParse(text);
        if (!check.success) return check.error.issues[0]?.message ?? 'not a location name';
        return (await deps.locations.get(text)) ? `there is already a location named ${text}; pick another name` : true;
      },
    })
  ).trim();
  return { address, saveAs: saveAs || null };
}

// -----------------------------------------------------------------------------------------------
// Bill of lading

export async function askAndPrintBol(deps: WizardDeps, shipment: Shipment): Promise<string | undefined> {
  const { prompter, io, api } = deps;
  if (!(await prompter.confirm({ message: 'Print the Bill of Lading (PDF) now?', default: true }))) {
    io.info(`Print it later with: shipper bol ${shipment.id}`);
    return undefined;
  }
  let template = 'standard';
  const templates = await api.listBolTemplates().then(
    ({ data }) => data.items,
    () => [],
  );
  if (templates.length > 1) {
    template = await prompter.select({
      message: 'BOL template',
      choices: templates.map((info) => ({ name: `${info.name}: ${info.description}`, value: info.name })),
      default: templates.some((info) => info.name === 'standard') ? 'standard' : templates[0]!.name,
    });
  } else if (templates.length === 1) {
    template = templates[0]!.name;
  }
  const answer = (
    await prompter.input({
      message: 'Save the PDF as',
      default: `BOL-${shipment.orderNumber}.pdf`,
      validate: (value) => {
        if (value.trim() === '') return 'a file name is needed';
        return deps.fileExists(deps.resolvePath(value.trim())) ? `${value.trim()} already exists; choose another name` : true;
      },
    })
  ).trim();
  const file = deps.resolvePath(answer);
  try {
    const { data: pdf } = await api.renderBol(shipment.id, { template });
    await deps.writeFile(file, pdf);
  } catch (error) {
    const failure = asShipperError(error);
    const reason = failure instanceof ProblemError ? problemLine(failure.problem) : failure.message;
    throw new CliError(`shipment ${shipment.orderNumber} is booked, but its BOL was not printed: ${reason} (print it later: shipper bol ${shipment.id})`, failure);
  }
  io.out(`${io.color.green('Wrote')} ${answer}`);
  return file;
}
