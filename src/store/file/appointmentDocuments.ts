/**
 * Appointment documents in the file store: a file each in `appointment-documents`, named by the
 * shipment, stop and type, its PDF beside it (`<name>.pdf`). The PDF is put in place first and
 * the record after it, each by rename: a reader finds a record only once its PDF is whole.
 */
import { readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { describeFileError, writeFileDurably } from '../../fs/durableWrite.js';
import { makeDirectory } from '../../fs/makeDirectory.js';
import type { AppointmentDocumentRecord, AppointmentDocumentRepository } from '../ports.js';
import { StoreError } from '../storeError.js';
import { isSafeRecordId, type RecordFiles } from './recordFiles.js';

const COLLECTION = 'appointment-documents';
const recordSchema = z.object({ shipmentId: z.string(), stop: z.string(), type: z.string(), sizeBytes: z.number().int(), document: z.unknown() });

export class FileAppointmentDocuments implements AppointmentDocumentRepository {
  constructor(
    private readonly files: RecordFiles,
    private readonly writable: () => void,
  ) {}

  private nameOf(shipmentId: string, stop: string, type: string): string | undefined {
    const name = `${shipmentId}.${stop}.${type}`.replace(/\./g, '__');
    return isSafeRecordId(name) && isSafeRecordId(shipmentId) ? name : undefined;
  }

  private contentFile(name: string): string {
    return join(this.files.collectionDir(COLLECTION), `${name}.pdf`);
  }

  async get(shipmentId: string, stop: string, type: string): Promise<AppointmentDocumentRecord | undefined> {
    const name = this.nameOf(shipmentId, stop, type);
    if (!name) return undefined;
    const record = await this.files.get(COLLECTION, name, recordSchema);
    if (!record) return undefined;
    const file = this.contentFile(name);
    const content = await readFile(file).catch((error: unknown) => {
      throw new StoreError(`the appointment document ${file} cannot be read (${describeFileError(error)}); restore it from a backup`, file);
    });
    if (content.byteLength !== record.sizeBytes)
      throw new StoreError(`the appointment document ${file} is damaged (its size is not the size recorded); restore it from a backup`, file);
    return { shipmentId: record.shipmentId, stop: record.stop, type: record.type, document: record.document, content: new Uint8Array(content) };
  }

  async put(record: AppointmentDocumentRecord): Promise<void> {
    this.writable();
    const name = this.nameOf(record.shipmentId, record.stop, record.type);
    const dir = this.files.collectionDir(COLLECTION);
    if (!name) throw new StoreError(`appointment document of ${record.shipmentId} cannot name a file`, dir);
    const file = this.contentFile(name);
    try {
      await makeDirectory(dir);
      await writeFileDurably(file, record.content, { whenExists: 'replace' });
    } catch (error) {
      throw new StoreError(`cannot write ${file}: ${describeFileError(error)}`, file);
    }
    const { content, ...rest } = record;
    await this.files.put(COLLECTION, name, { ...rest, sizeBytes: content.byteLength });
  }

  async remove(shipmentId: string, stop: string, type: string): Promise<boolean> {
    const name = this.nameOf(shipmentId, stop, type);
    if (!name) return false;
    this.writable();
    const removed = await this.files.remove(COLLECTION, name);
    await unlink(this.contentFile(name)).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw new StoreError(`cannot remove ${this.contentFile(name)}: ${describeFileError(error)}`, this.contentFile(name));
    });
    return removed;
  }
}
