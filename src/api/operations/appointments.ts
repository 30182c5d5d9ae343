/** The published appointment operations: each stop's requirement, its supporting documents, and the appointment PDF (not generated yet). */
import { z } from 'zod';
import { appointmentDocumentSchema, appointmentResponseSchema, APPOINTMENT_DOCUMENT_MAX_BYTES } from '../../domain/appointments.js';
import { appointmentRequirementSchema } from '../../domain/schemas.js';
import { API_PREFIX, PDF_TYPE } from '../wire.js';
import { operation, type OperationSpec, type UploadedFile } from './spec.js';

const STOP_PATH = `${API_PREFIX}/shipment/{orderNumber}/appointment/{stop}`;

/** The part of the upload, as the server's multipart reader hands it over (and the remote client sends it). */
const uploadedFileSchema = z.custom<UploadedFile>(
  (value) => typeof value === 'object' && value !== null && (value as UploadedFile).content instanceof Uint8Array && typeof (value as UploadedFile).filename === 'string',
  { message: 'send the document as the multipart part `file`' },
);

export const appointmentOperations = {
  getAppointment: operation({
    method: 'GET',
    path: STOP_PATH,
    params: ['orderNumber', 'stop'],
    response: {
      status: 200,
      description: "The stop's appointment requirement, with where each field came from",
      id: 'AppointmentRequirementResponse',
      schema: appointmentResponseSchema,
    },
    errors: [400, 401, 404, 500],
    summary: "The appointment requirement of a stop (PICKUP or DELIVERY): the order's, since shipper keeps no place-level defaults",
    tags: ['Appointments'],
    extension: false,
  }),
  upsertAppointment: operation({
    method: 'PUT',
    path: STOP_PATH,
    params: ['orderNumber', 'stop'],
    body: { id: 'AppointmentRequirementRequest', schema: appointmentRequirementSchema },
    response: { status: 200, description: 'The requirement as it now is', id: 'AppointmentRequirementResponse', schema: appointmentResponseSchema },
    errors: [400, 401, 404, 409, 413, 415, 500],
    summary: "Replace a stop's appointment requirement; refused once a carrier accepted the order (409 order_accepted_appointment_locked)",
    tags: ['Appointments'],
    extension: false,
  }),
  uploadAppointmentDocument: operation({
    method: 'POST',
    path: `${STOP_PATH}/document/{documentType}`,
    params: ['orderNumber', 'stop', 'documentType'],
    body: { id: 'AppointmentDocumentUpload', schema: uploadedFileSchema, multipart: { field: 'file', maxBytes: APPOINTMENT_DOCUMENT_MAX_BYTES } },
    response: { status: 200, description: 'The stored document', id: 'AppointmentDocumentResponse', schema: appointmentDocumentSchema },
    errors: [400, 401, 404, 409, 413, 415, 500],
    summary:
      'Upload a PACKING_SLIP or CUSTOMER_BOL for a stop (multipart part `file`: PDF, JPEG or PNG by its content, at most 10 MB; an image is kept as a one-page PDF); replaces the one before',
    tags: ['Appointments'],
    extension: false,
    operationId: 'uploadDocument',
  }),
  deleteAppointmentDocument: operation({
    method: 'DELETE',
    path: `${STOP_PATH}/document/{documentType}`,
    params: ['orderNumber', 'stop', 'documentType'],
    response: { status: 204, description: 'Deleted, or there was none' },
    errors: [400, 401, 404, 409, 500],
    summary: 'Delete the document of a stop and type (204 whether or not there was one)',
    tags: ['Appointments'],
    extension: false,
    operationId: 'deleteDocument',
  }),
  getAppointmentPdf: operation({
    method: 'GET',
    path: `${STOP_PATH}/pdf`,
    params: ['orderNumber', 'stop'],
    response: { status: 200, description: 'Never answered yet', mediaType: PDF_TYPE, fileName: ([order, stop]) => `appointment-${order}-${stop}.pdf` },
    errors: [401, 404],
    summary: 'The generated appointment PDF of a stop: published as "Phase 1: always returns 404", and so it is here',
    tags: ['Appointments'],
    extension: false,
  }),
} as const satisfies Record<string, OperationSpec>;
