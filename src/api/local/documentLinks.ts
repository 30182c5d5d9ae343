/**
 * Signed download links of the published document operation: a path on this server with an
 * expiry and an HMAC-SHA256 signature of the shipment, the document type and the expiry. The key
 * is derived from the store's token signing secret under its own label, so a link and a token
 * never share a key, and every server on one store honours the links of the others.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { newSigningSecret } from '../../auth/secrets.js';
import type { CredentialRepository } from '../../store/ports.js';
import { operations, pathOf } from '../operations.js';
import { makeProblem } from '../problems.js';
import { guardStore } from './records.js';

/** How long a link works: enough to hand it to a browser or a print queue, short enough that a leaked one soon dies. */
export const LINK_LIFETIME_SECONDS = 15 * 60;
const KEY_LABEL = 'shipper document download links v1';

export class DocumentLinks {
  private key: Promise<Buffer> | undefined;

  constructor(
    private readonly credentials: CredentialRepository,
    private readonly now: () => Date,
  ) {}

  private linkKey(): Promise<Buffer> {
    const key = (this.key ??= guardStore(() => this.credentials.signingSecret(newSigningSecret())).then((secret) => createHmac('sha256', secret).update(KEY_LABEL).digest()));
    // A store that failed to answer is asked again next time.
    key.catch(() => (this.key = undefined));
    return key;
  }

  private async signature(shipmentId: string, documentType: string, expires: string): Promise<Buffer> {
    return createHmac('sha256', await this.linkKey())
      .update(`${shipmentId}\n${documentType}\n${expires}`)
      .digest();
  }

  /** The link's path and query (the server makes it absolute) and when it expires. */
  async sign(shipmentId: string, documentType: string): Promise<{ path: string; expiresAt: string }> {
    const expires = String(Math.floor(this.now().getTime() / 1000) + LINK_LIFETIME_SECONDS);
    const signature = (await this.signature(shipmentId, documentType, expires)).toString('base64url');
    const path = pathOf(operations.downloadDocument, [shipmentId, documentType]);
    return { path: `${path}?${new URLSearchParams({ expires, signature }).toString()}`, expiresAt: new Date(Number(expires) * 1000).toISOString() };
  }

  /**
   * Refuses a link that was altered (403 `invalid_signature`) or has expired (403 `link_expired`:
   * as a pre-signed object store URL answers); the signature is checked first, so an expired
   * link says nothing until it is shown to be genuine.
   */
  async verify(shipmentId: string, documentType: string, expires: string, signature: string): Promise<void> {
    const expected = await this.signature(shipmentId, documentType, expires);
    const given = Buffer.from(signature, 'base64url');
    if (given.byteLength !== expected.byteLength || !timingSafeEqual(given, expected) || given.toString('base64url') !== signature) {
      throw makeProblem(403, 'invalid-signature', 'Forbidden', 'this download link was altered or is not one of this server; ask GET .../document/{documentType} for a new one', {
        reason: 'invalid_signature',
      });
    }
    if (!/^\d{1,12}$/.test(expires) || Number(expires) * 1000 <= this.now().getTime()) {
      throw makeProblem(403, 'link-expired', 'Forbidden', 'this download link has expired; ask GET .../document/{documentType} for a new one', { reason: 'link_expired' });
    }
  }
}
