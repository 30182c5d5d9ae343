/**
 * The published Address's service booleans (liftgateRequired, limitedAccess, appointmentRequired,
 * callAheadRequired, on each stop) and our accessorial codes (the tariff's list, which rating
 * prices), both ways (issue 40). Pure and free of zod.
 *
 * | boolean                           | code                       |
 * |-----------------------------------|----------------------------|
 * | pickupAddress.liftgateRequired    | LIFTGATE_PICKUP            |
 * | pickupAddress.limitedAccess       | LIMITED_ACCESS_PICKUP (RESIDENTIAL_PICKUP sets it too) |
 * | pickupAddress.appointmentRequired | none                       |
 * | pickupAddress.callAheadRequired   | none                       |
 * | deliveryAddress.liftgateRequired  | LIFTGATE_DELIVERY          |
 * | deliveryAddress.limitedAccess     | LIMITED_ACCESS_DELIVERY (RESIDENTIAL_DELIVERY sets it too) |
 * | deliveryAddress.appointmentRequired | APPOINTMENT              |
 * | deliveryAddress.callAheadRequired | NOTIFY_BEFORE_DELIVERY     |
 *
 * Codes without a boolean (INSIDE_PICKUP, INSIDE_DELIVERY, a carrier agreement's own) stay codes,
 * in our `accessorials` extension.
 *
 * *Decisions:*
 * - `limitedAccess: true` alone becomes LIMITED_ACCESS_* (the published text: "a limited access
 *   location (residential, construction site, etc.)": limited access is the general service).
 *   RESIDENTIAL_* is a kind of it priced on its own (the tariff prices them apart), so it sets
 *   limitedAccess (the service then knows the stop is limited access) and also stays a code in
 *   `accessorials`, which tells the general from the residential one. LIMITED_ACCESS_* stays a
 *   code beside RESIDENTIAL_* only when a request had both. So codes -> booleans -> codes gives
 *   back the same codes.
 * - The pickup's appointmentRequired and callAheadRequired have no code: our tariff prices a
 *   delivery appointment (APPOINTMENT, "Delivery appointment") and a call before delivery
 *   (NOTIFY_BEFORE_DELIVERY) only. They stay booleans on the address and price nothing.
 * - A code in `accessorials` that a boolean stands for counts as that boolean set (a client that
 *   sends `LIFTGATE_DELIVERY` the old way beside `liftgateRequired: false` gets the liftgate):
 *   the union, never a refusal; `false` and absent are the same.
 * - Codes are compared as written (the schema has them in capitals) and each counts once.
 */

export const ADDRESS_FLAGS = ['liftgateRequired', 'limitedAccess', 'appointmentRequired', 'callAheadRequired'] as const;
export type AddressFlag = (typeof ADDRESS_FLAGS)[number];
export const STOPS = ['pickupAddress', 'deliveryAddress'] as const;
export type Stop = (typeof STOPS)[number];
export type StopFlags = Record<AddressFlag, boolean>;

/** The code each boolean stands for; null: none (the boolean prices nothing). */
export const FLAG_CODES: Readonly<Record<Stop, Readonly<Record<AddressFlag, string | null>>>> = {
  pickupAddress: { liftgateRequired: 'LIFTGATE_PICKUP', limitedAccess: 'LIMITED_ACCESS_PICKUP', appointmentRequired: null, callAheadRequired: null },
  deliveryAddress: {
    liftgateRequired: 'LIFTGATE_DELIVERY',
    limitedAccess: 'LIMITED_ACCESS_DELIVERY',
    appointmentRequired: 'APPOINTMENT',
    callAheadRequired: 'NOTIFY_BEFORE_DELIVERY',
  },
};

/** Codes that set a boolean and stay codes: they say more than the boolean does. */
export const REFINING_CODES: Readonly<Record<string, { stop: Stop; flag: AddressFlag }>> = {
  RESIDENTIAL_PICKUP: { stop: 'pickupAddress', flag: 'limitedAccess' },
  RESIDENTIAL_DELIVERY: { stop: 'deliveryAddress', flag: 'limitedAccess' },
};

/** code -> the boolean it stands for. */
const FLAG_OF_CODE = new Map<string, { stop: Stop; flag: AddressFlag }>(
  STOPS.flatMap((stop) => ADDRESS_FLAGS.flatMap((flag) => (FLAG_CODES[stop][flag] ? [[FLAG_CODES[stop][flag], { stop, flag }] as const] : []))),
);

const noFlags = (): StopFlags => ({ liftgateRequired: false, limitedAccess: false, appointmentRequired: false, callAheadRequired: false });

/** The refining codes among `codes` that explain a stop's boolean, if any. */
function refinersOf(codes: ReadonlySet<string>, stop: Stop, flag: AddressFlag): string[] {
  return [...codes].filter((code) => REFINING_CODES[code]?.stop === stop && REFINING_CODES[code].flag === flag);
}

export interface PublishedServices {
  pickupAddress: StopFlags;
  deliveryAddress: StopFlags;
  /** The codes no boolean says all of: our `accessorials` extension, in the order given. */
  accessorials: string[];
}

/** Our codes as the published booleans, and the codes that stay codes. */
export function addressFlagsOfAccessorials(codes: readonly string[]): PublishedServices {
  const distinct = new Set(codes);
  const services: PublishedServices = { pickupAddress: noFlags(), deliveryAddress: noFlags(), accessorials: [] };
  for (const code of distinct) {
    const refining = REFINING_CODES[code];
    if (refining) {
      services[refining.stop][refining.flag] = true;
      services.accessorials.push(code);
      continue;
    }
    const target = FLAG_OF_CODE.get(code);
    if (!target) {
      services.accessorials.push(code);
      continue;
    }
    services[target.stop][target.flag] = true;
    // Beside a refining code the general one is kept as a code: the boolean alone would read as the refining one.
    if (refinersOf(distinct, target.stop, target.flag).length > 0) services.accessorials.push(code);
  }
  return services;
}

export type StopFlagsInput = Partial<Record<AddressFlag, boolean | null | undefined>> | null | undefined;

/**
 * The codes to price from the published booleans and our `accessorials` extension: the extension's
 * codes in their order, each once, then the code of each boolean set that no code given already
 * stands for, stop by stop (pickup first) in ADDRESS_FLAGS order.
 */
export function accessorialsOfAddressFlags(stops: { pickupAddress?: StopFlagsInput; deliveryAddress?: StopFlagsInput }, accessorials: readonly string[] = []): string[] {
  const codes = [...new Set(accessorials)];
  const given = new Set(codes);
  for (const stop of STOPS) {
    for (const flag of ADDRESS_FLAGS) {
      const code = FLAG_CODES[stop][flag];
      if (stops[stop]?.[flag] !== true || code === null || given.has(code)) continue;
      // A residential stop is the limited access one: the refining code already prices it.
      if (refinersOf(given, stop, flag).length > 0) continue;
      codes.push(code);
    }
  }
  return codes;
}
