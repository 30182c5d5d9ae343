/**
 * A stop's hours, as the published Address gives them (issue 40): `openTime` and `closeTime` in
 * 24-hour HH:mm, 10:00 and 16:00 when not given, and the stop closing after it opens. Pure and
 * free of zod.
 *
 * *Decision:* the published pattern `^([01]?[0-9]|2[0-3]):[0-5][0-9]$` takes a one-digit hour
 * (`9:00`); so do we, and we write it back as HH:mm (`09:00`), so that stored times compare as text.
 * `24:00` is refused (the pattern's hours end at 23). An empty text counts as not given, as
 * elsewhere in shipper's optional text fields.
 * *Decision:* closing after opening, strictly: `10:00` to `10:00` is no hours at all, and a stop
 * open overnight (`22:00` to `06:00`) cannot be written; the published document says nothing of
 * the order, and a pickup window that ends before it starts is a mistake far more often.
 */
import { PUBLISHED_LIMITS, type FieldViolation, type PublishedLimits } from './publishedLimits.js';

/** The published pattern, anchored: a 1- or 2-digit hour 0 to 23, a colon, minutes 00 to 59. */
export const STORE_TIME_PATTERN = /^([01]?[0-9]|2[0-3]):([0-5][0-9])$/;

/** `9:05` -> `09:05`; null when the text is not a time of day as the pattern writes it. */
export function storeTime(text: string): string | null {
  const match = STORE_TIME_PATTERN.exec(text);
  return match ? `${match[1]!.padStart(2, '0')}:${match[2]!}` : null;
}

export type StoreHours = { ok: true; openTime: string; closeTime: string } | { ok: false; violations: FieldViolation[] };

type TimesInput = { openTime?: string | null | undefined; closeTime?: string | null | undefined };
type Defaults = Pick<PublishedLimits, 'defaultOpenTime' | 'defaultCloseTime'>;

const isGiven = (address: TimesInput, key: 'openTime' | 'closeTime') => address[key] !== undefined && address[key] !== null && address[key] !== '';

/** Each time as HH:mm (the default when not given; null when it is no time of day), and the violations of their format. */
function readTimes(address: TimesInput, path: string, defaults: Defaults) {
  const violations: FieldViolation[] = [];
  const read = (key: 'openTime' | 'closeTime', fallback: string): string | null => {
    if (!isGiven(address, key)) return fallback;
    const sent = address[key]!;
    const time = storeTime(sent);
    if (time === null) violations.push({ field: `${path}.${key}`, reason: `${key} ${JSON.stringify(sent)} is not a time of day written HH:mm, 00:00 to 23:59 (e.g. ${fallback})` });
    return time;
  };
  return { openTime: read('openTime', defaults.defaultOpenTime), closeTime: read('closeTime', defaults.defaultCloseTime), violations };
}

/** The format alone, as the published confirm checks it: a time given must be HH:mm; one not given is its default. */
export function storeTimeViolations(address: TimesInput, path: string, defaults: Defaults = PUBLISHED_LIMITS): FieldViolation[] {
  return readTimes(address, path, defaults).violations;
}

/**
 * A stop's hours: the times given, in HH:mm, or the defaults, the close after the open; violations
 * name `{path}.openTime` and `{path}.closeTime` (`pickupAddress.openTime`).
 */
export function storeHours(address: TimesInput, path: string, defaults: Defaults = PUBLISHED_LIMITS): StoreHours {
  const { openTime, closeTime, violations } = readTimes(address, path, defaults);
  if (openTime !== null && closeTime !== null && closeTime <= openTime) {
    // Named on a time that was sent: the close, unless only the open was (then the default close is what it passed).
    const defaulted = !isGiven(address, 'closeTime') ? 'closeTime' : !isGiven(address, 'openTime') ? 'openTime' : null;
    violations.push({
      field: `${path}.${defaulted === 'closeTime' ? 'openTime' : 'closeTime'}`,
      reason: `closeTime ${closeTime} is not after openTime ${openTime}${defaulted ? ` (${defaulted} was not given: ${defaulted === 'openTime' ? openTime : closeTime} is its default)` : ''}`,
    });
  }
  return violations.length > 0 || openTime === null || closeTime === null ? { ok: false, violations } : { ok: true, openTime, closeTime };
}
