/**
 * The CLI's bearer tokens (issue 41 item 4): bought at POST /v1/auth/token with the client's
 * credentials, kept in `tokens.json` beside the config file (mode 0600, by a digest of the base
 * URL, client id and secret, so a rotated secret buys a new one), reused across invocations until
 * 5 minutes before they expire. Under a lock, so concurrent processes buy one token, not one each.
 */
import { createHash, randomUUID } from 'node:crypto';
import { chmod, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { request } from 'undici';
import { z } from 'zod';
import { TOKEN_PATH } from '../domain/credentials.js';
import { makeDirectory } from '../fs/makeDirectory.js';
import { PROBLEM_TYPE_BASE, ProblemError, RemoteError } from '../api/problems.js';
import { acquireLock } from '../store/file/storeLock.js';

export interface ClientCredentials {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
}

/** A token is renewed when less than this is left of it. */
export const REFRESH_MARGIN_MS = 5 * 60_000;

const cacheSchema = z.record(z.string(), z.object({ accessToken: z.string(), expiresAt: z.number() }));
const answerSchema = z.object({ accessToken: z.string().min(1), tokenType: z.string(), expiresIn: z.number().positive() });

export class TokenSource {
  private readonly key: string;

  constructor(
    private readonly credentials: ClientCredentials,
    /** The config directory: tokens.json and its lock go there. */
    private readonly dir: string,
    private readonly now: () => number = Date.now,
  ) {
    this.key = createHash('sha256').update(`${credentials.baseUrl}\n${credentials.clientId}\n${credentials.clientSecret}`, 'utf8').digest('hex');
  }

  private get file(): string {
    return join(this.dir, 'tokens.json');
  }

  /** A token good for 5 more minutes: the cached one, else a new one. */
  get(): Promise<string> {
    return this.locked(async (cache) => {
      const cached = cache[this.key];
      if (cached && cached.expiresAt - REFRESH_MARGIN_MS > this.now()) return cached.accessToken;
      return this.buy(cache);
    });
  }

  /** A new token, unless another process already replaced `stale` with one. */
  refresh(stale: string): Promise<string> {
    return this.locked(async (cache) => {
      const cached = cache[this.key];
      if (cached && cached.accessToken !== stale && cached.expiresAt - REFRESH_MARGIN_MS > this.now()) return cached.accessToken;
      return this.buy(cache);
    });
  }

  /** Whether a cached token is good for 5 more minutes, and when it expires. */
  async cached(): Promise<{ expiresAt: number } | undefined> {
    const cached = (await this.read())[this.key];
    return cached && cached.expiresAt - REFRESH_MARGIN_MS > this.now() ? { expiresAt: cached.expiresAt } : undefined;
  }

  /** Drops this client's token (logout). */
  forget(): Promise<void> {
    return this.locked(async (cache) => {
      delete cache[this.key];
      await this.write(cache);
      return '';
    }).then(() => undefined);
  }

  private async locked(fn: (cache: Record<string, { accessToken: string; expiresAt: number }>) => Promise<string>): Promise<string> {
    await makeDirectory(this.dir);
    const release = await acquireLock(join(this.dir, 'tokens.lock'), { waitMs: 30_000 });
    try {
      return await fn(await this.read());
    } finally {
      await release();
    }
  }

  private async read(): Promise<Record<string, { accessToken: string; expiresAt: number }>> {
    try {
      const parsed = cacheSchema.safeParse(JSON.parse(await readFile(this.file, 'utf8')));
      return parsed.success ? parsed.data : {};
    } catch {
      return {};
    }
  }

  private async write(cache: Record<string, { accessToken: string; expiresAt: number }>): Promise<void> {
    const now = this.now();
    for (const [key, entry] of Object.entries(cache)) if (entry.expiresAt <= now) delete cache[key];
    const temporary = `${this.file}.${process.pid}.tmp`;
    await writeFile(temporary, `${JSON.stringify(cache)}\n`, { mode: 0o600 });
    await chmod(temporary, 0o600);
    await rename(temporary, this.file);
  }

  private async buy(cache: Record<string, { accessToken: string; expiresAt: number }>): Promise<string> {
    const { accessToken, expiresIn } = await fetchToken(this.credentials);
    cache[this.key] = { accessToken, expiresAt: this.now() + expiresIn * 1000 };
    await this.write(cache);
    return accessToken;
  }
}

/** POST /v1/auth/token; a refusal is a 401/400/429 ProblemError with the server's errorDescription (never the secret). */
async function fetchToken({ baseUrl, clientId, clientSecret }: ClientCredentials): Promise<{ accessToken: string; expiresIn: number }> {
  const url = `${baseUrl.replace(/\/+$/, '')}${TOKEN_PATH}`;
  let status: number;
  let text: string;
  // As on every call of the remote client: the server's log ties the request to the error shown.
  let requestId: string = randomUUID();
  try {
    const response = await request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', 'x-request-id': requestId },
      body: JSON.stringify({ clientId, clientSecret }),
      headersTimeout: 30_000,
      bodyTimeout: 30_000,
    });
    status = response.statusCode;
    const answeredId = response.headers['x-request-id'];
    if (typeof answeredId === 'string' && answeredId !== '') requestId = answeredId;
    text = await response.body.text();
  } catch (error) {
    throw new RemoteError(`cannot get a token from ${url}: ${(error as Error).message}`, false);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  if (status === 200) {
    const answer = answerSchema.safeParse(json);
    if (!answer.success) throw new RemoteError(`${url} answered 200 without a token ({accessToken, tokenType, expiresIn})`);
    return answer.data;
  }
  const description = typeof (json as { errorDescription?: unknown })?.errorDescription === 'string' ? (json as { errorDescription: string }).errorDescription : `HTTP ${status}`;
  throw ProblemError.fromAnswer(
    {
      type: `${PROBLEM_TYPE_BASE}unauthorized`,
      title: status === 429 ? 'Too Many Requests' : 'Unauthorized',
      status: status >= 400 && status < 600 ? status : 502,
      detail: `${new URL(url).origin} refused the client credentials (${description}); check shipper auth status, or log in again with shipper auth login`,
    },
    requestId,
  );
}
