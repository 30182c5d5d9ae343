import { describe, expect, it } from 'vitest';
import { checkAddressAgainstZip, cityKey, CROSS_STATE_ZIPS } from '../../src/domain/addressZip.js';
import { ZipDirectory } from '../../src/geo/zipDirectory.js';

const NEW_YORK = { zipCode: '10001', city: 'New York', state: 'NY' };

describe('checkAddressAgainstZip', () => {
  it("accepts the ZIP's own city and state, in any case and spacing", () => {
    expect(checkAddressAgainstZip({ city: ' new york ', state: 'ny' }, NEW_YORK, 'deliveryAddress')).toEqual({ violations: [], warnings: [] });
  });

  it("refuses a state that contradicts the ZIP, naming the ZIP's place, on the party's path", () => {
    expect(checkAddressAgainstZip({ city: 'Chicago', state: 'IL' }, NEW_YORK, 'deliveryAddress')).toEqual({
      violations: [{ field: 'deliveryAddress.state', reason: 'IL does not match ZIP 10001, which is in New York, NY; correct the state or the ZIP' }],
      warnings: [
        {
          code: 'ADDRESS_CITY_MISMATCH',
          message: 'Chicago is not the USPS city of ZIP 10001 (New York, NY); check the address, carriers route by the ZIP (deliveryAddress.city)',
          field: 'deliveryAddress.city',
        },
      ],
    });
    // A bare address (location add) names the field alone.
    expect(checkAddressAgainstZip({ state: 'NJ' }, NEW_YORK, '').violations[0]!.field).toBe('state');
  });

  it('leaves what is not a 2-letter state or not a string to the schema', () => {
    for (const state of ['Illinois', '', 'I', 42, null, undefined]) {
      expect(checkAddressAgainstZip({ state, city: 'New York' }, NEW_YORK, 'pickupAddress'), String(state)).toEqual({ violations: [], warnings: [] });
    }
  });

  it('accepts either state of a ZIP that crosses a state line, and names both when refusing a third', () => {
    const texhoma = { zipCode: '73949', city: 'Texhoma', state: 'OK' };
    expect(checkAddressAgainstZip({ city: 'Texhoma', state: 'TX' }, texhoma, 'pickupAddress').violations).toEqual([]);
    expect(checkAddressAgainstZip({ city: 'Texhoma', state: 'NM' }, texhoma, 'pickupAddress').violations).toEqual([
      { field: 'pickupAddress.state', reason: 'NM does not match ZIP 73949, which is in Texhoma, OK (or TX); correct the state or the ZIP' },
    ]);
  });

  it("lists only real ZIPs whose first state is the geodata's", () => {
    const zips = new ZipDirectory();
    expect(Object.keys(CROSS_STATE_ZIPS)).toHaveLength(13);
    for (const [zip, { states }] of Object.entries(CROSS_STATE_ZIPS)) {
      expect(states.length, zip).toBe(2);
      expect(zips.lookup(zip)?.state, zip).toBe(states[0]);
    }
  });

  it('compares cities the way people write them', () => {
    expect(cityKey('St. Louis')).toBe(cityKey('Saint Louis'));
    expect(cityKey('Ft Worth')).toBe(cityKey('Fort Worth'));
    expect(cityKey('Mc Donald')).toBe(cityKey('McDonald'));
    expect(cityKey('Cañon City')).toBe(cityKey('Canon City'));
    expect(cityKey('Mount Vernon')).toBe(cityKey('Mt. Vernon'));
    expect(cityKey('Springfield')).not.toBe(cityKey('Springdale'));
  });
});
