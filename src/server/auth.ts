/**
 * The published two-layer auth of `shipper serve` (issue 41 item 1): a client's credentials buy a
 * signed token at POST /v1/auth/token; every /v1/shipper/** call needs a valid, unexpired token
 * with scope `shipper` (401, 403) and a known, unrevoked company key in `x-oway-api-key` (403).
 * A store with no client and no key is an open sandbox, as `serve` was: every token request
 * succeeds and a call without credentials belongs to the default company. `serve --api-key KEY`
 * stays one sandbox company's key (`Authorization: Bearer KEY`, or KEY as `x-oway-api-key`).
 * The caller's key and company are attached to the request (principalOf) for the records' scoping.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import {
  API_KEY_HEADER,
  CLIENT_ID_PATTERN,
  DEFAULT_COMPANY,
  FAILURE_WINDOW_MS,
  hasScope,
  keyIdOf,
  SCOPE_SHIPPER,
  throttle,
  TOKEN_LIFETIME_SECONDS,
  tokenRequestSchema,
} from '../domain/credentials.js';
import { matchesHash, newSigningSecret } from '../auth/secrets.js';
import type { CredentialRepository } from '../store/ports.js';
import { exchangeOf } from './exchange.js';

/** Who made a request: the key and its company (the default company without credentials); the key's id is null for the open sandbox and `serve --api-key`. */
export type Principal = NonNullable<ReturnType<typeof exchangeOf>['principal']>;

export type TokenAnswer = { status: number; json: unknown; headers?: Record<string, string> };
export type AuthOutcome = { ok: true; principal: Principal } | { ok: false; status: 401 | 403; detail: string };

export interface ServeAuthOptions {
  credentials: CredentialRepository;
  /** `serve --api-key KEY`: one sandbox company's key. */
  legacyKey?: string | undefined;
  /** The clock in ms (SHIPPER_NOW moves it). */
  now: () => number;
  /** The client's address from the last X-Forwarded-For entry (the operator's proxy is trusted). */
  trustProxy?: boolean | undefined;
}

const ISSUER = 'shipper serve';
/** Who calls an open sandbox: the default company, no key (never changed: shared by its calls). */
const SANDBOX_PRINCIPAL: Principal = Object.freeze({ companyId: DEFAULT_COMPANY, keyId: null, clientId: null });

/** The key and company that made the request, once authenticated (kept on the request's exchange). */
export function principalOf(req: IncomingMessage): Principal | undefined {
  return exchangeOf(req).principal;
}

export class ServeAuth {
  private secret: Promise<Uint8Array> | undefined;
  /** Once the store has a credential it keeps one (they are revoked, never removed). */
  private closed = false;
  private readonly legacyDigest: Buffer | undefined;

  constructor(private readonly options: ServeAuthOptions) {
    this.legacyDigest = options.legacyKey ? digest(options.legacyKey) : undefined;
  }

  /** True when the store has no client and no key (an open sandbox). */
  async open(): Promise<boolean> {
    if (!this.closed) this.closed = (await this.options.credentials.list()).length > 0;
    return !this.closed;
  }

  private signingKey(): Promise<Uint8Array> {
    this.secret ??= this.options.credentials.signingSecret(newSigningSecret()).then((secret) => new TextEncoder().encode(secret));
    // A failure (the store was down) is tried again by the next request.
    this.secret.catch(() => (this.secret = undefined));
    return this.secret;
  }

  /** POST /v1/auth/token with its JSON body (undefined when the body was no JSON). */
  async issueToken(body: unknown, req: IncomingMessage): Promise<TokenAnswer> {
    const parsed = tokenRequestSchema.safeParse(body);
    if (!parsed.success) return tokenError(400, 'invalid_request', 'send a JSON object {"clientId": "...", "clientSecret": "..."}');
    const { clientId, clientSecret } = parsed.data;
    const { credentials, now } = this.options;
    if (!(await this.open()) || this.legacyDigest) {
      const bucket = `${clientId}\n${this.addressOf(req)}`;
      const at = now();
      const verdict = throttle(await credentials.failures(bucket, at - FAILURE_WINDOW_MS), at);
      if (!verdict.allowed) {
        return {
          ...tokenError(429, 'too_many_requests', `too many failed token requests; try again in ${verdict.retryAfterSeconds} s`),
          headers: { 'retry-after': String(verdict.retryAfterSeconds) },
        };
      }
      const record = CLIENT_ID_PATTERN.test(clientId) ? await credentials.get(clientId) : undefined;
      const known = record?.kind === 'client' && record.revokedAt === null;
      if (!matchesHash(clientSecret, record?.hash) || !known) {
        await credentials.addFailure(bucket, at, at - FAILURE_WINDOW_MS);
        return tokenError(401, 'invalid_client', 'unknown client or wrong client secret');
      }
    }
    const { SignJWT } = await import('jose');
    const issuedAt = Math.floor(now() / 1000);
    const accessToken = await new SignJWT({ scope: `${SCOPE_SHIPPER} dev` })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(ISSUER)
      .setSubject(clientId)
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + TOKEN_LIFETIME_SECONDS)
      .sign(await this.signingKey());
    return { status: 200, json: { accessToken, tokenType: 'Bearer', expiresIn: TOKEN_LIFETIME_SECONDS } };
  }

  /**
   * The checks of a /v1/shipper/** call; on success the principal is attached to `req`. An open
   * sandbox whose store tells at once that it is still empty (emptyNow) answers without waiting:
   * a cached GET then costs no turn of the microtask queue here.
   */
  authenticate(req: IncomingMessage): AuthOutcome | Promise<AuthOutcome> {
    if (!this.closed && !this.legacyDigest && this.options.credentials.emptyNow?.() === true) {
      const outcome: AuthOutcome = { ok: true, principal: SANDBOX_PRINCIPAL };
      exchangeOf(req).principal = outcome.principal;
      return outcome;
    }
    return this.check(req).then((outcome) => {
      if (outcome.ok) exchangeOf(req).principal = outcome.principal;
      return outcome;
    });
  }

  private async check(req: IncomingMessage): Promise<AuthOutcome> {
    const bearer = /^Bearer[ ]+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
    const presentedKey = single(req.headers[API_KEY_HEADER]);
    const sandbox: AuthOutcome = { ok: true, principal: { companyId: DEFAULT_COMPANY, keyId: null, clientId: null } };
    // serve --api-key KEY: the key as a bearer (as before) is the default company's.
    if (this.legacyDigest && bearer !== undefined && timingSafeEqual(digest(bearer), this.legacyDigest)) return sandbox;
    const open = await this.open();
    if (open && !this.legacyDigest) return sandbox;
    if (open) return { ok: false, status: 401, detail: 'missing or wrong API key: send Authorization: Bearer <key>' };
    if (bearer === undefined) return { ok: false, status: 401, detail: 'send Authorization: Bearer <token> (POST /v1/auth/token issues one)' };

    const { jwtVerify } = await import('jose');
    let scope: unknown;
    let clientId: string | undefined;
    try {
      const { payload } = await jwtVerify(bearer, await this.signingKey(), { algorithms: ['HS256'], issuer: ISSUER, currentDate: new Date(this.options.now()) });
      scope = payload.scope;
      clientId = payload.sub;
    } catch {
      return { ok: false, status: 401, detail: 'the bearer token is malformed, forged or expired: get a new one at POST /v1/auth/token' };
    }
    if (!open) {
      const client = clientId && CLIENT_ID_PATTERN.test(clientId) ? await this.options.credentials.get(clientId) : undefined;
      if (client?.kind !== 'client' || client.revokedAt !== null) return { ok: false, status: 401, detail: 'the token was issued to a client that is revoked or unknown' };
    }
    if (!hasScope(scope, SCOPE_SHIPPER)) return { ok: false, status: 403, detail: `the token lacks the scope ${SCOPE_SHIPPER}` };

    if (presentedKey === undefined) return { ok: false, status: 403, detail: `send the company's API key in ${API_KEY_HEADER}` };
    if (this.legacyDigest && timingSafeEqual(digest(presentedKey), this.legacyDigest)) return { ok: true, principal: { ...sandbox.principal, clientId: clientId ?? null } };
    const keyId = keyIdOf(presentedKey);
    const record = keyId ? await this.options.credentials.get(keyId) : undefined;
    const valid = matchesHash(presentedKey, record?.hash) && record?.kind === 'key' && record.revokedAt === null;
    if (!valid || !record?.companyId) return { ok: false, status: 403, detail: `the API key in ${API_KEY_HEADER} is unknown or revoked` };
    return { ok: true, principal: { companyId: record.companyId, keyId: record.id, clientId: clientId ?? null } };
  }

  private addressOf(req: IncomingMessage): string {
    if (this.options.trustProxy) {
      const forwarded = single(req.headers['x-forwarded-for']);
      const last = forwarded?.split(',').at(-1)?.trim();
      if (last) return last;
    }
    return req.socket.remoteAddress ?? '-';
  }
}

function tokenError(status: number, error: string, errorDescription: string): TokenAnswer {
  return { status, json: { error, errorDescription } };
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
