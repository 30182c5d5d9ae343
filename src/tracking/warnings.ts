/** The warnings of tracking, each made by one named function with its stable code (SPEC 5). */
import { warning, type Warning } from '../domain/warnings.js';

export function zoneGuessedWarning(reference: string, place: string, zone: string): Warning {
  return warning('TRACKING_ZONE_GUESSED', `${reference}: the time zone of ${place} is not known; its local time was read in ${zone} (the shipment's nearest end)`);
}

export function unknownStatusCodeWarning(reference: string, code: string): Warning {
  return warning(
    'TRACKING_UNKNOWN_STATUS_CODE',
    `${reference}: status code ${code} is not one shipper knows; the event is kept on the timeline and leaves the tracking status as it was`,
  );
}

export function messageNoticeWarning(reference: string, notice: string): Warning {
  return warning('TRACKING_MESSAGE_NOTICE', `${reference}: ${notice}`);
}
