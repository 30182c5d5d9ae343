/**
 * Credentials in the file store (issue 41): a file each in `credentials` (clients and keys, by id,
 * hashes only), the signing secret in `credentials/.signing-key.json` (created once: a hard link
 * of a complete file, which fails when another process made it first), and the token endpoint's
 * failures in `auth-failures`, a file per client id and address (the bucket's SHA-256).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { link, readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { credentialRecordSchema, type CredentialRecord } from '../../domain/credentials.js';
import { describeFileError, temporaryPathFor, writeNewFileDurably } from '../../fs/durableWrite.js';
import { makeDirectory } from '../../fs/makeDirectory.js';
import type { CredentialRepository } from '../ports.js';
import { StoreError } from '../storeError.js';
import { isSafeRecordId, type RecordFiles } from './recordFiles.js';

const COLLECTION = 'credentials';
const FAILURES = 'auth-failures';
const failuresSchema = z.object({ at: z.array(z.number()) });
const signingSchema = z.object({ secret: z.string().min(32) });

export class FileCredentials implements CredentialRepository {
  constructor(
    private readonly files: RecordFiles,
    private readonly writable: () => void,
  ) {}

  async get(id: string): Promise<CredentialRecord | undefined> {
    if (!isSafeRecordId(id)) return undefined;
    return this.files.get(COLLECTION, id, credentialRecordSchema);
  }

  async add(record: CredentialRecord): Promise<void> {
    this.writable();
    if (!isSafeRecordId(record.id)) throw new StoreError(`credential id ${record.id} cannot name a file`, this.files.collectionDir(COLLECTION));
    await this.files.put(COLLECTION, record.id, credentialRecordSchema.parse(record));
  }

  async list(): Promise<CredentialRecord[]> {
    // A server in an open sandbox asks at every request: no directory listing while the store is as it was.
    const ids = this.files.smallCollectionIds(COLLECTION);
    if (ids.length === 0) return [];
    const records = await Promise.all(ids.map((id) => this.files.get(COLLECTION, id, credentialRecordSchema)));
    return records.filter((record) => record !== undefined).sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  }

  emptyNow(): boolean {
    return this.files.smallCollectionIds(COLLECTION).length === 0;
  }

  async revoke(id: string, at: string): Promise<CredentialRecord | undefined> {
    const record = await this.get(id);
    if (!record) return undefined;
    if (record.revokedAt !== null) return record;
    const revoked = { ...record, revokedAt: at };
    this.writable();
    await this.files.put(COLLECTION, id, revoked);
    return revoked;
  }

  async signingSecret(candidate: string): Promise<string> {
    const dir = this.files.collectionDir(COLLECTION);
    const file = join(dir, '.signing-key.json');
    const existing = await readSecret(file);
    if (existing) return existing;
    this.writable();
    await makeDirectory(dir);
    const temporary = temporaryPathFor(file);
    try {
      await writeNewFileDurably(temporary, Buffer.from(`${JSON.stringify({ secret: candidate })}\n`, 'utf8'));
      fs.chmodSync(temporary, 0o600);
      await link(temporary, file).catch((error: unknown) => {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      });
    } catch (error) {
      throw new StoreError(`cannot keep the signing key in ${file}: ${describeFileError(error)}`, file);
    } finally {
      await unlink(temporary).catch(() => undefined);
    }
    const kept = await readSecret(file);
    if (!kept) throw new StoreError(`the signing key ${file} is damaged; remove it (tokens issued with it stop working)`, file);
    return kept;
  }

  async addFailure(bucket: string, at: number, forgetBefore: number): Promise<void> {
    this.writable();
    const id = bucketId(bucket);
    const previous = (await this.files.get(FAILURES, id, failuresSchema).catch(() => undefined))?.at ?? [];
    await this.files.put(FAILURES, id, { at: [...previous.filter((time) => time >= forgetBefore), at] });
  }

  async failures(bucket: string, since: number): Promise<number[]> {
    const record = await this.files.get(FAILURES, bucketId(bucket), failuresSchema).catch(() => undefined);
    return (record?.at ?? []).filter((time) => time >= since);
  }
}

function bucketId(bucket: string): string {
  return createHash('sha256').update(bucket, 'utf8').digest('hex');
}

async function readSecret(file: string): Promise<string | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new StoreError(`cannot read ${file}: ${describeFileError(error)}`, file);
  }
  try {
    return signingSchema.parse(JSON.parse(text)).secret;
  } catch {
    return undefined;
  }
}
