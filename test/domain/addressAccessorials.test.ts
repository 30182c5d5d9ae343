import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ADDRESS_FLAGS, accessorialsOfAddressFlags, addressFlagsOfAccessorials, FLAG_CODES, REFINING_CODES, STOPS, type StopFlags } from '../../src/domain/addressAccessorials.js';

/** The accessorial codes the shipped tariff prices: every code this mapping names must be one. */
const TARIFF_CODES = Object.keys(
  (JSON.parse(readFileSync(new URL('../../templates/tariff/default.json', import.meta.url), 'utf8')) as { accessorials: Record<string, unknown> }).accessorials,
);
const published = JSON.parse(readFileSync(new URL('../../reference/oway-shipper-api.openapi.json', import.meta.url), 'utf8')) as {
  components: { schemas: { Address: { properties: Record<string, { type: string }> } } };
};

const none: StopFlags = { liftgateRequired: false, limitedAccess: false, appointmentRequired: false, callAheadRequired: false };
const flags = (set: Partial<StopFlags> = {}): StopFlags => ({ ...none, ...set });
const sorted = (codes: readonly string[]) => [...codes].sort();

describe('address booleans and accessorial codes', () => {
  it('the booleans are the published Address booleans, and every code named is one the tariff prices', () => {
    const booleans = Object.entries(published.components.schemas.Address.properties)
      .filter(([, property]) => property.type === 'boolean')
      .map(([name]) => name);
    expect(sorted(booleans)).toEqual(sorted(ADDRESS_FLAGS));
    const named = [...STOPS.flatMap((stop) => Object.values(FLAG_CODES[stop])), ...Object.keys(REFINING_CODES)].filter((code) => code !== null);
    for (const code of named) expect(TARIFF_CODES).toContain(code);
  });

  it.each([
    ['LIFTGATE_PICKUP', 'pickupAddress', 'liftgateRequired'],
    ['LIFTGATE_DELIVERY', 'deliveryAddress', 'liftgateRequired'],
    ['LIMITED_ACCESS_PICKUP', 'pickupAddress', 'limitedAccess'],
    ['LIMITED_ACCESS_DELIVERY', 'deliveryAddress', 'limitedAccess'],
    ['APPOINTMENT', 'deliveryAddress', 'appointmentRequired'],
    ['NOTIFY_BEFORE_DELIVERY', 'deliveryAddress', 'callAheadRequired'],
  ] as const)('%s is %s.%s, and nothing else', (code, stop, flag) => {
    const other = stop === 'pickupAddress' ? 'deliveryAddress' : 'pickupAddress';
    expect(addressFlagsOfAccessorials([code])).toEqual({ [stop]: flags({ [flag]: true }), [other]: none, accessorials: [] });
    expect(accessorialsOfAddressFlags({ [stop]: { [flag]: true } })).toEqual([code]);
  });

  it.each([
    ['RESIDENTIAL_PICKUP', 'pickupAddress'],
    ['RESIDENTIAL_DELIVERY', 'deliveryAddress'],
  ] as const)('%s sets %s.limitedAccess and stays a code', (code, stop) => {
    const other = stop === 'pickupAddress' ? 'deliveryAddress' : 'pickupAddress';
    expect(addressFlagsOfAccessorials([code])).toEqual({ [stop]: flags({ limitedAccess: true }), [other]: none, accessorials: [code] });
    // And back: the residential code prices the limited access; no LIMITED_ACCESS_* is added.
    expect(accessorialsOfAddressFlags({ [stop]: { limitedAccess: true } }, [code])).toEqual([code]);
  });

  it('limitedAccess: true alone is the general LIMITED_ACCESS_*', () => {
    expect(accessorialsOfAddressFlags({ pickupAddress: { limitedAccess: true }, deliveryAddress: { limitedAccess: true } })).toEqual([
      'LIMITED_ACCESS_PICKUP',
      'LIMITED_ACCESS_DELIVERY',
    ]);
  });

  it('RESIDENTIAL_DELIVERY and LIMITED_ACCESS_DELIVERY together: one boolean, both codes kept', () => {
    const services = addressFlagsOfAccessorials(['RESIDENTIAL_DELIVERY', 'LIMITED_ACCESS_DELIVERY']);
    expect(services.deliveryAddress.limitedAccess).toBe(true);
    expect(services.accessorials).toEqual(['RESIDENTIAL_DELIVERY', 'LIMITED_ACCESS_DELIVERY']);
    expect(accessorialsOfAddressFlags(services, services.accessorials)).toEqual(['RESIDENTIAL_DELIVERY', 'LIMITED_ACCESS_DELIVERY']);
  });

  it('a residential pickup does not explain a limited access delivery', () => {
    expect(accessorialsOfAddressFlags({ deliveryAddress: { limitedAccess: true } }, ['RESIDENTIAL_PICKUP'])).toEqual(['RESIDENTIAL_PICKUP', 'LIMITED_ACCESS_DELIVERY']);
  });

  it('codes without a boolean stay codes, in their order', () => {
    expect(addressFlagsOfAccessorials(['INSIDE_DELIVERY', 'HAZMAT', 'INSIDE_PICKUP'])).toEqual({
      pickupAddress: none,
      deliveryAddress: none,
      accessorials: ['INSIDE_DELIVERY', 'HAZMAT', 'INSIDE_PICKUP'],
    });
    expect(accessorialsOfAddressFlags({}, ['INSIDE_DELIVERY', 'HAZMAT'])).toEqual(['INSIDE_DELIVERY', 'HAZMAT']);
  });

  it("the pickup's appointment and call-ahead have no code: they price nothing", () => {
    expect(accessorialsOfAddressFlags({ pickupAddress: { appointmentRequired: true, callAheadRequired: true } })).toEqual([]);
    expect(FLAG_CODES.pickupAddress.appointmentRequired).toBeNull();
    expect(FLAG_CODES.pickupAddress.callAheadRequired).toBeNull();
  });

  it('false, null and absent are the same; a code sent for a boolean counts as it set (the union)', () => {
    expect(accessorialsOfAddressFlags({ deliveryAddress: { liftgateRequired: false, appointmentRequired: null } })).toEqual([]);
    expect(accessorialsOfAddressFlags({ deliveryAddress: { liftgateRequired: false } }, ['LIFTGATE_DELIVERY'])).toEqual(['LIFTGATE_DELIVERY']);
    expect(accessorialsOfAddressFlags({ deliveryAddress: { liftgateRequired: true } }, ['LIFTGATE_DELIVERY'])).toEqual(['LIFTGATE_DELIVERY']);
    expect(accessorialsOfAddressFlags({ pickupAddress: null, deliveryAddress: undefined })).toEqual([]);
  });

  it('each code counts once', () => {
    expect(addressFlagsOfAccessorials(['INSIDE_DELIVERY', 'INSIDE_DELIVERY', 'APPOINTMENT', 'APPOINTMENT']).accessorials).toEqual(['INSIDE_DELIVERY']);
    expect(accessorialsOfAddressFlags({}, ['HAZMAT', 'HAZMAT'])).toEqual(['HAZMAT']);
  });

  it('all at once, in the order: extension codes first, then the booleans stop by stop', () => {
    expect(
      accessorialsOfAddressFlags(
        {
          pickupAddress: { liftgateRequired: true, limitedAccess: true, appointmentRequired: true },
          deliveryAddress: { liftgateRequired: true, limitedAccess: true, appointmentRequired: true, callAheadRequired: true },
        },
        ['INSIDE_DELIVERY', 'RESIDENTIAL_DELIVERY'],
      ),
    ).toEqual(['INSIDE_DELIVERY', 'RESIDENTIAL_DELIVERY', 'LIFTGATE_PICKUP', 'LIMITED_ACCESS_PICKUP', 'LIFTGATE_DELIVERY', 'APPOINTMENT', 'NOTIFY_BEFORE_DELIVERY']);
  });

  describe('round trips', () => {
    const known = [
      ...STOPS.flatMap((stop) => Object.values(FLAG_CODES[stop])).filter((code): code is string => code !== null),
      ...Object.keys(REFINING_CODES),
      'INSIDE_PICKUP',
      'INSIDE_DELIVERY',
    ];
    const code = fc.oneof(fc.constantFrom(...known), fc.stringMatching(/^[A-Z][A-Z0-9_]{0,12}$/));

    it('codes -> booleans -> codes gives the same codes', () => {
      fc.assert(
        fc.property(fc.array(code, { maxLength: 12 }), (codes) => {
          const services = addressFlagsOfAccessorials(codes);
          expect(sorted(accessorialsOfAddressFlags(services, services.accessorials))).toEqual(sorted([...new Set(codes)]));
        }),
        { numRuns: 1000 },
      );
    });

    it('booleans -> codes -> booleans gives the same booleans, but for the two the pickup has no code for', () => {
      const stopFlags = fc.record({ liftgateRequired: fc.boolean(), limitedAccess: fc.boolean(), appointmentRequired: fc.boolean(), callAheadRequired: fc.boolean() });
      fc.assert(
        fc.property(
          stopFlags,
          stopFlags,
          fc.array(fc.constantFrom('INSIDE_PICKUP', 'INSIDE_DELIVERY', 'HAZMAT'), { maxLength: 3 }),
          (pickupAddress, deliveryAddress, extension) => {
            const codes = accessorialsOfAddressFlags({ pickupAddress, deliveryAddress }, extension);
            const back = addressFlagsOfAccessorials(codes);
            expect(back.pickupAddress).toEqual({ ...pickupAddress, appointmentRequired: false, callAheadRequired: false });
            expect(back.deliveryAddress).toEqual(deliveryAddress);
            expect(back.accessorials).toEqual([...new Set(extension)]);
          },
        ),
        { numRuns: 1000 },
      );
    });

    it('what the codes give, read back and given again, is the same (booleans and extension)', () => {
      fc.assert(
        fc.property(fc.array(code, { maxLength: 12 }), (codes) => {
          const services = addressFlagsOfAccessorials(codes);
          expect(addressFlagsOfAccessorials(accessorialsOfAddressFlags(services, services.accessorials))).toEqual(services);
        }),
        { numRuns: 1000 },
      );
    });
  });
});
