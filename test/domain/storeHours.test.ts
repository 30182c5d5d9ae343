import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { publishedLimits } from '../../src/domain/publishedLimits.js';
import { STORE_TIME_PATTERN, storeHours, storeTime, storeTimeViolations } from '../../src/domain/storeHours.js';

/** Address.openTime's pattern, read from the published document (closeTime has the same). */
const published = JSON.parse(readFileSync(new URL('../../reference/oway-shipper-api.openapi.json', import.meta.url), 'utf8')) as {
  components: { schemas: { Address: { properties: Record<'openTime' | 'closeTime', { pattern: string }> } } };
};
const ADDRESS_PATTERN = new RegExp(published.components.schemas.Address.properties.openTime.pattern);

describe('a time of day', () => {
  it('is the published pattern (both times have it), the minutes captured', () => {
    expect(published.components.schemas.Address.properties.closeTime.pattern).toBe(ADDRESS_PATTERN.source);
    expect(STORE_TIME_PATTERN.source).toBe(ADDRESS_PATTERN.source.replace(':[0-5][0-9]', ':([0-5][0-9])'));
  });

  it.each([
    ['00:00', '00:00'],
    ['23:59', '23:59'],
    ['10:00', '10:00'],
    ['9:05', '09:05'],
    ['0:00', '00:00'],
    ['19:30', '19:30'],
  ])('%j is %j', (text, expected) => {
    expect(storeTime(text)).toBe(expected);
  });

  it.each(['24:00', '23:60', '7', '07', '0700', '7:5', '07:5', '007:00', ' 10:00', '10:00 ', '10.00', '10:00:00', '10h00', '-1:00', '', '１０:００', '10:00am'])(
    '%j is no time of day',
    (text) => {
      expect(storeTime(text)).toBeNull();
    },
  );

  it('takes exactly what the published pattern takes, and writes it HH:mm', () => {
    fc.assert(
      fc.property(fc.oneof(fc.stringMatching(/^[0-9]{1,3}:[0-9]{1,3}$/), fc.string({ maxLength: 6 })), (text) => {
        const time = storeTime(text);
        expect(time !== null).toBe(ADDRESS_PATTERN.test(text));
        if (time !== null) expect(time).toMatch(/^([01][0-9]|2[0-3]):[0-5][0-9]$/);
      }),
      { numRuns: 1000 },
    );
  });
});

describe("a stop's hours", () => {
  it('are 10:00 to 16:00 when none are given (absent, null or empty)', () => {
    expect(storeHours({}, 'pickupAddress')).toEqual({ ok: true, openTime: '10:00', closeTime: '16:00' });
    expect(storeHours({ openTime: null, closeTime: '' }, 'pickupAddress')).toEqual({ ok: true, openTime: '10:00', closeTime: '16:00' });
  });

  it('are those given, written HH:mm; one given takes the other default', () => {
    expect(storeHours({ openTime: '7:30', closeTime: '15:00' }, 'pickupAddress')).toEqual({ ok: true, openTime: '07:30', closeTime: '15:00' });
    expect(storeHours({ openTime: '08:00' }, 'deliveryAddress')).toEqual({ ok: true, openTime: '08:00', closeTime: '16:00' });
    expect(storeHours({ closeTime: '23:59' }, 'deliveryAddress')).toEqual({ ok: true, openTime: '10:00', closeTime: '23:59' });
  });

  it('name each time that is not one, on its path', () => {
    expect(storeHours({ openTime: '24:00', closeTime: '5pm' }, 'deliveryAddress')).toEqual({
      ok: false,
      violations: [
        { field: 'deliveryAddress.openTime', reason: 'openTime "24:00" is not a time of day written HH:mm, 00:00 to 23:59 (e.g. 10:00)' },
        { field: 'deliveryAddress.closeTime', reason: 'closeTime "5pm" is not a time of day written HH:mm, 00:00 to 23:59 (e.g. 16:00)' },
      ],
    });
  });

  it('close after they open, strictly', () => {
    expect(storeHours({ openTime: '10:00', closeTime: '10:01' }, 'pickupAddress').ok).toBe(true);
    expect(storeHours({ openTime: '10:00', closeTime: '10:00' }, 'pickupAddress')).toEqual({
      ok: false,
      violations: [{ field: 'pickupAddress.closeTime', reason: 'closeTime 10:00 is not after openTime 10:00' }],
    });
    expect(storeHours({ openTime: '22:00', closeTime: '06:00' }, 'pickupAddress').ok).toBe(false);
  });

  it('compare one-digit hours as times, not as text: 9:00 to 10:00 is an hour', () => {
    expect(storeHours({ openTime: '9:00', closeTime: '10:00' }, 'pickupAddress')).toEqual({ ok: true, openTime: '09:00', closeTime: '10:00' });
  });

  it('against a default: the time given is named, and the default said', () => {
    expect(storeHours({ openTime: '17:00' }, 'pickupAddress')).toEqual({
      ok: false,
      violations: [{ field: 'pickupAddress.openTime', reason: 'closeTime 16:00 is not after openTime 17:00 (closeTime was not given: 16:00 is its default)' }],
    });
    expect(storeHours({ closeTime: '09:00' }, 'pickupAddress')).toEqual({
      ok: false,
      violations: [{ field: 'pickupAddress.closeTime', reason: 'closeTime 09:00 is not after openTime 10:00 (openTime was not given: 10:00 is its default)' }],
    });
  });

  it("by the caller's defaults", () => {
    expect(storeHours({}, 'pickupAddress', publishedLimits({ defaultOpenTime: '08:00', defaultCloseTime: '17:00' }))).toEqual({ ok: true, openTime: '08:00', closeTime: '17:00' });
  });

  it('the format alone (what confirm checks) does not judge their order', () => {
    expect(storeTimeViolations({ openTime: '17:00', closeTime: '09:00' }, 'pickupAddress')).toEqual([]);
    expect(storeTimeViolations({ openTime: '7' }, 'pickupAddress')).toEqual([
      { field: 'pickupAddress.openTime', reason: 'openTime "7" is not a time of day written HH:mm, 00:00 to 23:59 (e.g. 10:00)' },
    ]);
  });
});
