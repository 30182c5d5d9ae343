/**
 * The appointments of an order's stops: the requirement (GET/PUT .../appointment/{stop}) kept on
 * the shipment, and the supporting documents uploaded for a stop, kept in the store's
 * appointmentDocuments. Orders are found through Shipments, like every other operation's.
 */
import {
  APPOINTMENT_DOCUMENT_MAX_BYTES,
  appointmentDocumentTypeSchema,
  appointmentLocked,
  declaredKindOf,
  mergedAppointment,
  stopSchema,
  storedFileName,
  uploadKindOf,
  withAppointment,
  type AppointmentDocument,
  type AppointmentDocumentType,
  type AppointmentResponse,
  type Stop,
  type UploadKind,
} from '../../domain/appointments.js';
import type { Shipment } from '../../domain/schemas.js';
import type { ShipperStore } from '../../store/ports.js';
import type { UploadedFile } from '../operations.js';
import { conflict, constraintViolation, documentTooLarge, makeProblem, notFound } from '../problems.js';
import type { ApiResult } from '../types.js';
import type { IdFactory } from './ids.js';
import type { BodyOf } from './input.js';
import { guardStore } from './records.js';
import type { Shipments } from './shipments.js';
import { OtherCompanysRecord } from './companyStore.js';

/** What a client may declare for an upload without saying what it is (curl without ;type=, a Blob without a type). */
const UNDECLARED = new Set(['', 'application/octet-stream']);
const KIND_NAMES: Record<UploadKind, string> = { 'application/pdf': 'a PDF', 'image/png': 'a PNG image', 'image/jpeg': 'a JPEG image' };

export function stopOf(value: string): Stop {
  const parsed = stopSchema.safeParse(value);
  if (!parsed.success) throw constraintViolation([{ field: 'stop', reason: `stop is PICKUP or DELIVERY, not ${JSON.stringify(value.slice(0, 40))}` }]);
  return parsed.data;
}

function documentTypeOf(value: string): AppointmentDocumentType {
  const parsed = appointmentDocumentTypeSchema.safeParse(value);
  if (!parsed.success) throw constraintViolation([{ field: 'documentType', reason: `documentType is PACKING_SLIP or CUSTOMER_BOL, not ${JSON.stringify(value.slice(0, 40))}` }]);
  return parsed.data;
}

/** Published: writes are refused once a carrier accepted the order; a cancelled order takes none either. */
function assertWritable(shipment: Shipment): void {
  if (appointmentLocked(shipment.orderStatus)) {
    throw makeProblem(409, 'appointment-locked', 'Conflict', `${shipment.orderNumber} is ${shipment.orderStatus}: its appointment data is locked`, {
      reason: 'order_accepted_appointment_locked',
    });
  }
  if (shipment.orderStatus === 'CANCELLED') throw conflict(`${shipment.orderNumber} is cancelled: its appointments cannot change`);
}

/**
 * The published appointment operations answer an order of another company as one that does not
 * exist ("does not exist or does not belong to your company"): 404, not the 403 of the others.
 */
async function asOwnOrder<T>(orderNumber: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof OtherCompanysRecord) throw notFound('shipment', orderNumber);
    throw error;
  }
}

export class Appointments {
  constructor(
    private readonly store: ShipperStore,
    private readonly shipments: Shipments,
    private readonly ids: IdFactory,
    private readonly now: () => Date,
  ) {}

  async get(orderNumber: string, stopName: string): Promise<ApiResult<AppointmentResponse>> {
    const stop = stopOf(stopName);
    return { data: mergedAppointment(await this.order(orderNumber), stop), warnings: [] };
  }

  /** The stop's requirement replaced whole, in one unit of work with the state check. */
  async upsert(orderNumber: string, stopName: string, requirement: BodyOf<'upsertAppointment'>): Promise<ApiResult<AppointmentResponse>> {
    const stop = stopOf(stopName);
    const shipmentId = await asOwnOrder(orderNumber, () => this.shipments.idOf(orderNumber));
    return guardStore(() =>
      asOwnOrder(orderNumber, () =>
        this.store.withTransaction(async (tx) => {
          const record = await tx.shipments.getRecord(shipmentId);
          if (!record) throw notFound('shipment', orderNumber);
          assertWritable(record.shipment);
          const updated: Shipment = { ...record.shipment, appointments: withAppointment(record.shipment, stop, requirement), updatedAt: this.now().toISOString() };
          tx.shipments.put(updated, record.ownQuote);
          return { data: mergedAppointment(updated, stop), warnings: [] };
        }),
      ),
    );
  }

  private order(orderNumber: string): Promise<Shipment> {
    return asOwnOrder(orderNumber, () => this.shipments.get(orderNumber));
  }

  /**
   * A PDF, PNG or JPEG by its bytes (415 otherwise, and when the declared type names another of
   * them); an image becomes a one-page PDF, as published; 413 past 10 MB, nothing stored.
   */
  async upload(orderNumber: string, stopName: string, typeName: string, file: UploadedFile): Promise<ApiResult<AppointmentDocument>> {
    const stop = stopOf(stopName);
    const type = documentTypeOf(typeName);
    if (type === 'APPOINTMENT_DOCUMENT') {
      throw makeProblem(400, 'not-user-uploadable', 'Bad Request', 'APPOINTMENT_DOCUMENT is made by the system; upload a PACKING_SLIP or a CUSTOMER_BOL', {
        reason: 'appointment_document_not_user_uploadable',
      });
    }
    const shipment = await this.order(orderNumber);
    assertWritable(shipment);
    if (file.content.byteLength > APPOINTMENT_DOCUMENT_MAX_BYTES) throw documentTooLarge(APPOINTMENT_DOCUMENT_MAX_BYTES);
    const kind = uploadKindOf(file.content);
    const declared = declaredKindOf(file.contentType);
    if (!kind) throw unsupported(`the file is not a PDF, a JPEG or a PNG${UNDECLARED.has(declared) ? '' : ` (it was sent as ${declared.slice(0, 60)})`}`);
    if (!UNDECLARED.has(declared) && declared !== kind) throw unsupported(`the file is ${KIND_NAMES[kind]} but was sent as ${declared.slice(0, 60)}`);
    const content = kind === 'application/pdf' ? file.content : await imagePdf(file.content, kind);
    const document: AppointmentDocument = {
      id: this.ids.document(this.now()),
      stop,
      type,
      filename: storedFileName(file.filename, type),
      sizeBytes: content.byteLength,
      contentType: 'application/pdf',
      uploadedAt: this.now().toISOString(),
    };
    await guardStore(() => this.store.appointmentDocuments.put({ shipmentId: shipment.id, stop, type, document, content }));
    return { data: document, warnings: [] };
  }

  /** Published: 204 whether or not there was one. */
  async remove(orderNumber: string, stopName: string, typeName: string): Promise<ApiResult<null>> {
    const stop = stopOf(stopName);
    const type = documentTypeOf(typeName);
    const shipment = await this.order(orderNumber);
    assertWritable(shipment);
    await guardStore(() => this.store.appointmentDocuments.remove(shipment.id, stop, type));
    return { data: null, warnings: [] };
  }

  /** Published as "Phase 1: always returns 404": the order and the stop are checked, then 404. */
  async pdf(orderNumber: string, stopName: string): Promise<never> {
    const stop = stopOf(stopName);
    const shipment = await this.order(orderNumber);
    throw makeProblem(404, 'not-found', 'Not Found', `no appointment PDF is generated for the ${stop.toLowerCase()} of ${shipment.orderNumber} (not yet made by this version)`, {
      reason: 'appointment_pdf_not_generated',
    });
  }
}

const unsupported = (detail: string) =>
  makeProblem(415, 'unsupported-media-type', 'Unsupported Media Type', `${detail}; send a PDF, a JPEG or a PNG`, { reason: 'unsupported_content_type' });

/** An image as a one-page PDF (imagePdf.ts, loaded with pdf-lib on first use); a damaged image is the client's 415. */
async function imagePdf(bytes: Uint8Array, kind: 'image/png' | 'image/jpeg'): Promise<Uint8Array> {
  const { imageAsPdf } = await import('./imagePdf.js');
  try {
    return await imageAsPdf(bytes, kind);
  } catch {
    throw unsupported(`the ${kind === 'image/png' ? 'PNG' : 'JPEG'} image cannot be read`);
  }
}
