/**
 * Appointments of an order's stops, as published: the requirement of each stop (how the carrier
 * books it), answered merged with its provenance, and the supporting documents uploaded for a stop.
 * shipper keeps no place-level defaults, so every field comes from the order or from nowhere. Pure.
 */
import { z } from 'zod';
import { onFirstUse } from './schemaOnFirstUse.js';
import { appointmentContactSchema, type Shipment } from './schemas.js';
import type { OrderStatus } from './statuses.js';

export const STOPS = ['PICKUP', 'DELIVERY'] as const;
export type Stop = (typeof STOPS)[number];

/** PACKING_SLIP and CUSTOMER_BOL are the user's; APPOINTMENT_DOCUMENT is published as system-only (400). */
export const APPOINTMENT_DOCUMENT_TYPES = ['PACKING_SLIP', 'CUSTOMER_BOL', 'APPOINTMENT_DOCUMENT'] as const;
export type AppointmentDocumentType = (typeof APPOINTMENT_DOCUMENT_TYPES)[number];

/** The published upload limit. */
export const APPOINTMENT_DOCUMENT_MAX_BYTES = 10 * 1024 * 1024;

export const stopSchema = z.enum(STOPS, { error: 'stop is PICKUP or DELIVERY' });
export const appointmentDocumentTypeSchema = z.enum(APPOINTMENT_DOCUMENT_TYPES, { error: 'documentType is PACKING_SLIP or CUSTOMER_BOL' });

/** Appointment data is locked once a carrier accepted the order (published: 409 order_accepted_appointment_locked). */
export function appointmentLocked(status: OrderStatus): boolean {
  return status === 'ACCEPTED' || status === 'ASSIGNED' || status === 'PICKED_UP' || status === 'DELIVERED';
}

const FIELDS = ['channel', 'portalUrl', 'contacts', 'instructions', 'referenceNumbers', 'leadTimeHours'] as const;

export const appointmentResponseSchema = onFirstUse(() =>
  z.object({
    channel: z.enum(['PHONE', 'EMAIL', 'PORTAL']).optional(),
    portalUrl: z.string().optional(),
    contacts: z.array(appointmentContactSchema).optional(),
    instructions: z.string().optional(),
    referenceNumbers: z.array(z.string()).optional(),
    leadTimeHours: z.number().int().optional(),
    appointmentRequired: z.boolean(),
    _merged: z.object({ fields: z.record(z.string(), z.enum(['PLACE', 'ORDER', 'PLACE_AND_ORDER', 'NONE'])) }),
  }),
);
export type AppointmentResponse = z.output<typeof appointmentResponseSchema>;

const stopKey = (stop: Stop) => (stop === 'PICKUP' ? 'pickup' : 'delivery');

/** The stop's requirement as the order keeps it (the create request's `appointments` block, or a PUT since). */
export function appointmentOf(shipment: Pick<Shipment, 'appointments'>, stop: Stop): Record<string, unknown> | undefined {
  const kept = (shipment.appointments as Record<string, unknown> | null)?.[stopKey(stop)];
  return kept && typeof kept === 'object' ? (kept as Record<string, unknown>) : undefined;
}

/**
 * The published merged requirement: the order's fields (absent ones left out: the published types
 * have no null), `appointmentRequired` from the stop's address, and `_merged` naming ORDER or NONE
 * for each field. `notes`, which the create request took before `instructions` was published, is
 * answered as the instructions when there are none.
 */
export function mergedAppointment(shipment: Pick<Shipment, 'appointments' | 'pickupAddress' | 'deliveryAddress'>, stop: Stop): AppointmentResponse {
  const kept = { ...appointmentOf(shipment, stop) };
  if (kept.instructions === undefined && typeof kept.notes === 'string') kept.instructions = kept.notes;
  const answer: Record<string, unknown> = {};
  const fields: Record<string, 'ORDER' | 'NONE'> = {};
  for (const field of FIELDS) {
    const value = kept[field];
    if (value !== undefined && value !== null) answer[field] = value;
    fields[field] = value === undefined || value === null ? 'NONE' : 'ORDER';
  }
  const address = stop === 'PICKUP' ? shipment.pickupAddress : shipment.deliveryAddress;
  return { ...answer, appointmentRequired: address.appointmentRequired === true, _merged: { fields } } as AppointmentResponse;
}

/** The requirement with the stop's replaced (PUT: the full requirement replaces any prior value). */
export function withAppointment(shipment: Pick<Shipment, 'appointments'>, stop: Stop, requirement: Record<string, unknown>): Record<string, unknown> {
  return { ...(shipment.appointments ?? {}), [stopKey(stop)]: requirement };
}

// ---------------------------------------------------------------------------------------------
// Supporting documents

export const appointmentDocumentSchema = onFirstUse(() =>
  z.object({
    id: z.string(),
    stop: stopSchema,
    type: appointmentDocumentTypeSchema,
    filename: z.string().meta({ description: 'The name sent, ending in .pdf (images are stored as one-page PDFs)' }),
    sizeBytes: z.number().int().meta({ description: 'Size as stored (after an image became a PDF)' }),
    contentType: z.literal('application/pdf'),
    uploadedAt: z.string(),
    uploadedBy: z.string().optional().meta({ description: 'Who uploaded it; absent when no user is known' }),
  }),
);
export type AppointmentDocument = z.output<typeof appointmentDocumentSchema>;

export type UploadKind = 'application/pdf' | 'image/png' | 'image/jpeg';

/** What the bytes are, by their magic numbers (the declared type is the sender's word only). */
export function uploadKindOf(bytes: Uint8Array): UploadKind | undefined {
  const starts = (...magic: number[]) => magic.every((byte, index) => bytes[index] === byte);
  if (starts(0x25, 0x50, 0x44, 0x46, 0x2d)) return 'application/pdf'; // %PDF-
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  return undefined;
}

/** The declared type, lower case and without parameters; `image/jpg` is a common spelling of JPEG. */
export function declaredKindOf(contentType: string): string {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  return type === 'image/jpg' ? 'image/jpeg' : type;
}

/** `scan.PNG` -> `scan.pdf`; a name that is no file name (`../x`, control characters) becomes `<type>.pdf`. */
export function storedFileName(filename: string, type: AppointmentDocumentType): string {
  const base = filename.split(/[\\/]/).pop() ?? '';
  const clean = [...base]
    .filter((char) => char >= ' ' && char !== '\u007f')
    .join('')
    .trim()
    .slice(0, 200);
  if (clean === '' || clean.startsWith('.')) return `${type.toLowerCase()}.pdf`;
  return /\.pdf$/i.test(clean) ? clean : `${clean.replace(/\.[^.]*$/, '')}.pdf`;
}
