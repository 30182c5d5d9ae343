/**
 * The warnings of tracking, each made by one named function. Warnings are plain strings today;
 * the comment names the stable code each is meant to carry when warnings get codes (SPEC 5).
 */

/** TRACKING_ZONE_GUESSED */
export function zoneGuessedWarning(reference: string, place: string, zone: string): string {
  return `${reference}: the time zone of ${place} is not known; its local time was read in ${zone} (the shipment's nearest end)`;
}

/** TRACKING_UNKNOWN_STATUS_CODE */
export function unknownStatusCodeWarning(reference: string, code: string): string {
  return `${reference}: status code ${code} is not one shipper knows; the event is kept on the timeline and leaves the tracking status as it was`;
}

/** TRACKING_MESSAGE_NOTICE */
export function messageNoticeWarning(reference: string, notice: string): string {
  return `${reference}: ${notice}`;
}
