/**
 * Transit tables: for each lane and each pickup day, the transit days and ETA that a quote on that
 * lane would carry, without pricing or storing anything. Pure: the same rules as rateQuote
 * (laneTransitDays, estimateDelivery), so a table never disagrees with a quote.
 */
import { laneTransitDays, placeOf, tariffMiles } from './rating.js';
import type { ZipPlace } from './zipCode.js';
import type { TransitLane, TransitRow } from './schemas.js';
import type { Tariff } from './tariff.js';
import { businessDayReason, estimateDelivery, type HolidayCalendar } from './transit.js';
import { addDays } from './dates.js';

/** One calendar day of a pickup range: reason is null on a business day, else why carriers are closed. */
export interface PickupDay {
  date: string;
  reason: string | null;
}

/** The calendar day after a YYYY-MM-DD date. */
export function nextCalendarDate(date: string): string {
  return addDays(date, 1);
}

/**
 * Every calendar day from `start` up to and including the `businessDays`-th business day on or
 * after it, so closed days in between (weekends, holidays) show up with their reason.
 */
export function pickupDays(start: string, businessDays: number, calendar: HolidayCalendar): PickupDay[] {
  const days: PickupDay[] = [];
  let open = 0;
  for (let date = start; open < businessDays; date = nextCalendarDate(date)) {
    const reason = businessDayReason(date, calendar);
    days.push({ date, reason });
    if (reason === null) open += 1;
  }
  return days;
}

/** Closed days strictly after pickup and before delivery: the days transit does not count. */
export function closedDaysBetween(pickupDate: string, deliveryDate: string, calendar: HolidayCalendar): Array<{ date: string; reason: string }> {
  const closed: Array<{ date: string; reason: string }> = [];
  for (let date = nextCalendarDate(pickupDate); date < deliveryDate; date = nextCalendarDate(date)) {
    const reason = businessDayReason(date, calendar);
    if (reason !== null) closed.push({ date, reason });
  }
  return closed;
}

export function transitRow(day: PickupDay, transitDays: number | null, destination: ZipPlace, tariff: Tariff): TransitRow {
  const closed = { pickupDate: day.date, transitDays: null, deliveryDate: null, estimatedDeliveryDate: null, skippedDays: [] };
  if (day.reason !== null) return { ...closed, pickupAvailable: false, closedReason: day.reason };
  if (transitDays === null) return { ...closed, pickupAvailable: true, closedReason: null };
  const estimate = estimateDelivery({
    pickupDate: day.date,
    transitDays,
    destinationTimeZone: destination.timeZone,
    deliveryCutoff: tariff.deliveryCutoff,
    calendar: tariff.holidays,
  });
  return {
    pickupDate: day.date,
    pickupAvailable: true,
    closedReason: null,
    transitDays: estimate.transitDays,
    deliveryDate: estimate.deliveryDate,
    estimatedDeliveryDate: estimate.estimatedDeliveryDate,
    skippedDays: closedDaysBetween(day.date, estimate.deliveryDate, tariff.holidays),
  };
}

/** One lane over the given pickup days. */
export function transitForLane(origin: ZipPlace, destination: ZipPlace, days: ReadonlyArray<PickupDay>, tariff: Tariff): TransitLane {
  const miles = tariffMiles(origin, destination, tariff);
  const transitDays = laneTransitDays(origin, destination, miles, tariff);
  return {
    origin: placeOf(origin),
    destination: { ...placeOf(destination), timeZone: destination.timeZone },
    miles,
    covered: transitDays !== null,
    rows: days.map((day) => transitRow(day, transitDays, destination, tariff)),
  };
}
