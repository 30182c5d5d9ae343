/**
 * The keys of `shipper config get/set/unset` and the parser of each: loaded by the config command
 * only, so that the settings every command reads (settings.ts) build no schema of the EDI and
 * eBOL settings.
 */
import { resolve } from 'node:path';
import { z } from 'zod';
import { carrierProfileSchema } from '../domain/carrierProfile.js';
import { GS1_COMPANY_PREFIX_PATTERN, GS1_COMPANY_PREFIX_RULE } from '../domain/bolNumber.js';
import { decimalNumber } from '../domain/numberText.js';
import { ebolSettingSchema, x12SettingSchema } from '../edi/settings.js';
import { baseUrlSchema, modeSchema, profileNameSchema } from './settings.js';
import { SERVICE_KINDS } from '../domain/apiServers.js';
import { parseStoreLocation } from './storeLocation.js';

export interface SettingKind {
  /** How the key is written; `<profile>` stands for a profile name. */
  key: string;
  pattern: RegExp;
  /** Parses the command-line text into the stored value. */
  value: z.ZodType;
  secret?: boolean;
}

const wholeNumber = (min: number, max: number) => {
  const message = `must be a whole number from ${min} to ${max}`;
  // The one number syntax (numberText.ts): z.coerce would read "0x10" as 16 and "" as 0.
  return z
    .string({ error: message })
    .transform((text, ctx) => decimalNumber(text) ?? (ctx.addIssue({ code: 'custom', message }), z.NEVER))
    .pipe(z.number().int({ message }).min(min, { message }).max(max, { message }));
};
const absolutePath = z
  .string()
  .min(1)
  .transform((path) => resolve(path));
/** A store directory (made absolute) or a PostgreSQL URL (kept as given, checked). */
const storeLocationText = z
  .string()
  .min(1)
  .transform((text, ctx) => {
    try {
      const location = parseStoreLocation(text);
      return location.kind === 'file' ? location.dir : location.url;
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: (error as Error).message });
      return z.NEVER;
    }
  });
/** A JSON object written on the command line (`'{"first": "1000000", ...}'`), checked by its schema. */
const jsonObject = (schema: z.ZodType) =>
  z
    .string()
    .transform((text, ctx) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: 'must be a JSON object, e.g. \'{"name": "Old Dominion"}\'' });
        return z.NEVER;
      }
    })
    .pipe(schema);
const carrierProfileSchemaForKey = carrierProfileSchema;

export const SETTING_KINDS: SettingKind[] = [
  { key: 'mode', pattern: /^mode$/, value: modeSchema },
  { key: 'profile', pattern: /^profile$/, value: profileNameSchema },
  { key: 'store', pattern: /^store$/, value: storeLocationText },
  { key: 'tariff', pattern: /^tariff$/, value: absolutePath },
  {
    key: 'tariffs',
    pattern: /^tariffs$/,
    value: z
      .string()
      .min(1)
      .transform((path) => (path === 'samples' ? path : resolve(path))),
  },
  { key: 'timeoutMs', pattern: /^timeoutMs$/, value: wholeNumber(100, 600_000) },
  { key: 'retries', pattern: /^retries$/, value: wholeNumber(0, 10) },
  { key: 'service', pattern: /^service$/, value: z.enum(SERVICE_KINDS, { message: 'must be published or serve' }) },
  {
    key: 'bolCompanyPrefix',
    pattern: /^bolCompanyPrefix$/,
    value: z.string().trim().regex(GS1_COMPANY_PREFIX_PATTERN, { message: GS1_COMPANY_PREFIX_RULE }),
  },
  { key: 'ssccExtensionDigit', pattern: /^ssccExtensionDigit$/, value: wholeNumber(0, 9) },
  { key: 'carriers.<SCAC>', pattern: /^carriers\.[A-Z]{2,4}$/, value: jsonObject(carrierProfileSchemaForKey) },
  { key: 'x12', pattern: /^x12$/, value: jsonObject(x12SettingSchema) },
  { key: 'ebol', pattern: /^ebol$/, value: jsonObject(ebolSettingSchema) },
  { key: 'print.bol', pattern: /^print\.bol$/, value: z.string().trim().min(1) },
  { key: 'print.labels', pattern: /^print\.labels$/, value: z.string().trim().min(1) },
  { key: 'print.invoice', pattern: /^print\.invoice$/, value: z.string().trim().min(1) },
  { key: 'print.dispute', pattern: /^print\.dispute$/, value: z.string().trim().min(1) },
  { key: 'print.timeoutMs', pattern: /^print\.timeoutMs$/, value: wholeNumber(100, 600_000) },
  { key: 'profiles.<profile>.baseUrl', pattern: /^profiles\.[A-Za-z0-9][A-Za-z0-9_-]{0,63}\.baseUrl$/, value: baseUrlSchema },
  {
    key: 'profiles.<profile>.apiKey',
    pattern: /^profiles\.[A-Za-z0-9][A-Za-z0-9_-]{0,63}\.apiKey$/,
    value: z.string().trim().min(1, { message: 'an API key cannot be empty' }),
    secret: true,
  },
  {
    key: 'profiles.<profile>.clientId',
    pattern: /^profiles\.[A-Za-z0-9][A-Za-z0-9_-]{0,63}\.clientId$/,
    value: z.string().trim().min(1, { message: 'a client id cannot be empty' }),
  },
  {
    key: 'profiles.<profile>.clientSecret',
    pattern: /^profiles\.[A-Za-z0-9][A-Za-z0-9_-]{0,63}\.clientSecret$/,
    value: z.string().trim().min(1, { message: 'a client secret cannot be empty' }),
    secret: true,
  },
];

export function settingKindOf(key: string): SettingKind | undefined {
  return SETTING_KINDS.find((kind) => kind.pattern.test(key));
}
