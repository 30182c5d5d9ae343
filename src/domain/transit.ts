// TEMPORARY STUB (not committed): replaced by the transit branch.
export const HOLIDAY_RULES = ['NEW_YEARS_DAY','MLK_DAY','PRESIDENTS_DAY','MEMORIAL_DAY','JUNETEENTH','INDEPENDENCE_DAY','LABOR_DAY','COLUMBUS_DAY','VETERANS_DAY','THANKSGIVING','DAY_AFTER_THANKSGIVING','CHRISTMAS_EVE','CHRISTMAS','NEW_YEARS_EVE'] as const;
export type HolidayRule = typeof HOLIDAY_RULES[number];
export interface HolidayCalendar { rules: readonly HolidayRule[]; extraDates: readonly string[]; removedDates: readonly string[] }
export const DEFAULT_CARRIER_HOLIDAYS: HolidayCalendar = { rules: ['NEW_YEARS_DAY','MEMORIAL_DAY','INDEPENDENCE_DAY','LABOR_DAY','THANKSGIVING','CHRISTMAS'], extraDates: [], removedDates: [] };
const d = (s: string) => new Date(s + 'T00:00:00Z');
const f = (x: Date) => x.toISOString().slice(0, 10);
export function isBusinessDay(date: string, _c: HolidayCalendar): boolean { const w = d(date).getUTCDay(); return w !== 0 && w !== 6; }
export function businessDayReason(date: string, c: HolidayCalendar): string | null { return isBusinessDay(date, c) ? null : 'a weekend day'; }
export function nextBusinessDay(date: string, c: HolidayCalendar): string { let x = d(date); do { x = new Date(x.getTime() + 864e5); } while (!isBusinessDay(f(x), c)); return f(x); }
export function addBusinessDays(p: string, n: number, c: HolidayCalendar): string { let x = p; for (let i = 0; i < n; i++) x = nextBusinessDay(x, c); return x; }
export function localDateInZone(instant: Date, timeZone: string): string { return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(instant); }
export function estimateDelivery(i: { pickupDate: string; transitDays: number; destinationTimeZone: string; deliveryCutoff: string; calendar: HolidayCalendar }) { const deliveryDate = addBusinessDays(i.pickupDate, i.transitDays, i.calendar); return { transitDays: i.transitDays, deliveryDate, estimatedDeliveryDate: new Date(deliveryDate + 'T22:00:00Z').toISOString() }; }
