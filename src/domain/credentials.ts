/**
 * Credentials of the published two-layer auth (issue 41), as rules: a client's id and secret buy a
 * bearer token at POST /v1/auth/token; every shipper call carries an API key tied to one company
 * (`oway_sk_test_...` for the sandbox, `oway_sk_live_...` for production). Pure: the shapes of ids,
 * secrets and keys, the stored record, masking, scopes and the brute-force throttle. Hashing,
 * randomness and signing are the shell's (src/auth/).
 */
import { z } from 'zod';

export const TOKEN_PATH = '/v1/auth/token';
/** What a token is good for: 24 hours. */
export const TOKEN_LIFETIME_SECONDS = 86_400;
/** The header carrying the company's API key on every shipper call. */
export const API_KEY_HEADER = 'x-oway-api-key';
/** The scope every /v1/shipper/** call needs (403 without it, as published). */
export const SCOPE_SHIPPER = 'shipper';
/** The company of records made without credentials (an open sandbox, `serve --api-key`). */
export const DEFAULT_COMPANY = 'default';

const CROCKFORD_ULID = '[0-9A-HJKMNP-TV-Z]{26}';
export const CLIENT_ID_PATTERN = new RegExp(`^cl_${CROCKFORD_ULID}$`);
/** `oway_sk_test_` or `oway_sk_live_`, the key's ULID (its id), then 43 random characters. */
export const API_KEY_PATTERN = new RegExp(`^oway_sk_(test|live)_(${CROCKFORD_ULID})[A-Za-z0-9_-]{43}$`);

export const companyIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, { message: 'company ids are letters, digits, ., - and _ (at most 64), starting with a letter or digit' });

export const clientNameSchema = z
  .string()
  .trim()
  .min(1, { message: 'a client needs a name' })
  .max(100, { message: 'a client name is at most 100 characters' })
  .refine((name) => !/[\u0000-\u001f\u007f]/.test(name), { message: 'a client name has no control characters' });

/** A client (id and hashed secret) or an API key (hashed), as the store keeps it: never the secret itself. */
export const credentialRecordSchema = z.object({
  id: z.string(),
  kind: z.enum(['client', 'key']),
  /** A client's name. */
  name: z.string().optional(),
  /** A key's company (records are scoped by it once companies land, issue 41 item 2). */
  companyId: z.string().optional(),
  /** A key for production (`oway_sk_live_`), else the sandbox. */
  live: z.boolean().optional(),
  /** SHA-256 of the secret or key, hex. Secrets are 256 random bits: a plain digest cannot be reversed. */
  hash: z.string().regex(/^[0-9a-f]{64}$/),
  /** The last 4 characters, to recognise it in a list. */
  last4: z.string().max(4),
  createdAt: z.string(),
  revokedAt: z.string().nullable(),
});
export type CredentialRecord = z.output<typeof credentialRecordSchema>;

/** The body of POST /v1/auth/token. */
export const tokenRequestSchema = z.object({
  clientId: z.string().min(1).max(200).meta({ description: 'The client id (`shipper credentials add-client`)' }),
  clientSecret: z.string().min(1).max(200).meta({ description: 'The client secret, shown once when the client was added' }),
});
/** The answer of POST /v1/auth/token, in the published names. */
export const tokenAnswerSchema = z.object({
  accessToken: z.string().meta({ description: 'A JWT with the scopes `shipper dev`, sent as `Authorization: Bearer <accessToken>`' }),
  tokenType: z.literal('Bearer'),
  expiresIn: z.number().int().meta({ description: 'Seconds the token is valid (86400)' }),
});
/** A refusal of POST /v1/auth/token: the published body, not a ProblemDetail. */
export const tokenErrorSchema = z.object({
  error: z.string().meta({ description: '`invalid_request`, `invalid_client` or `too_many_requests`' }),
  errorDescription: z.string(),
});

/** `****` and the last 4 characters: all of a secret, a key or a token that is ever shown. */
export function masked(secret: string | undefined): string {
  if (!secret) return '';
  return secret.length <= 8 ? '****' : `****${secret.slice(-4)}`;
}

/** The key's id (`key_<ULID>`) read from the key itself, or undefined when it is no key of ours. */
export function keyIdOf(apiKey: string): string | undefined {
  const match = API_KEY_PATTERN.exec(apiKey);
  return match ? `key_${match[2]}` : undefined;
}

/** True when the space-separated scope names `wanted`. */
export function hasScope(scope: unknown, wanted: string): boolean {
  return typeof scope === 'string' && scope.split(' ').includes(wanted);
}

export const FAILURE_LIMIT = 5;
export const FAILURE_WINDOW_MS = 60_000;

/**
 * The brute-force throttle: `failures` (ms since the epoch) of one client id from one address.
 * At the limit within the window the next attempt waits until the oldest of them leaves it.
 */
export function throttle(
  failures: readonly number[],
  now: number,
  limit = FAILURE_LIMIT,
  windowMs = FAILURE_WINDOW_MS,
): { allowed: true } | { allowed: false; retryAfterSeconds: number } {
  // A failure "in the future" (another instance's clock runs ahead) counts as recent.
  const recent = failures.filter((at) => at > now - windowMs).sort((a, b) => a - b);
  if (recent.length < limit) return { allowed: true };
  const oldest = recent[recent.length - limit]!;
  return { allowed: false, retryAfterSeconds: Math.min(Math.ceil(windowMs / 1000), Math.max(1, Math.ceil((oldest + windowMs - now) / 1000))) };
}
