/** `--pickup-date` as people write it (`friday`, `+3`, `Nov 27`, `2026-11-27`), for quote, ship and transit. */
import type { CommandContext } from './context.js';
import { parseUserDate, localDateInZone } from '../domain/dates.js';
import { UsageError } from './errors.js';

/** Today's date at the origin ZIP (carriers' days are local); an unknown ZIP falls back to Chicago, which the API then refuses anyway. */
export async function todayAtOrigin(ctx: CommandContext, originZip: string | undefined): Promise<string> {
  const zone = (originZip ? (await ctx.zips()).lookup(originZip)?.timeZone : undefined) ?? 'America/Chicago';
  return localDateInZone((await ctx.clock())(), zone);
}

/** The YYYY-MM-DD date the flag means; text that is no date is a usage error (exit 2). Whether it is a pickup day is the API's call. */
export function pickupDateFromFlag(value: string | undefined, today: string): string | undefined {
  if (value === undefined) return undefined;
  // A value that is not a date at all (`someday`, `2026-02-30`) is a usage error (exit 2); whether a
  // real date is a pickup day (not past, not a holiday) is the API's call (exit 1).
  const parsed = parseUserDate(value, today);
  if (!parsed.ok) throw new UsageError(`--pickup-date: ${parsed.message}`);
  return parsed.date;
}

/** The flag's date, counted from today at the origin. */
export async function pickupDateOption(ctx: CommandContext, value: string | undefined, originZip: string | undefined): Promise<string | undefined> {
  return value === undefined ? undefined : pickupDateFromFlag(value, await todayAtOrigin(ctx, originZip));
}
