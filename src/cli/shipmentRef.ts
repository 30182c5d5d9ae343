/**
 * The shipment a command names, as people have it at hand: its id (`sh_...`), its order number
 * (`SO-000123`, as printed on the BOL and the labels; `so123` works too) or its 17-digit BOL
 * number (the barcode). Order and BOL numbers are looked up through the list filters, so the
 * same words work in local and remote mode.
 */
import { CliError, notFound, ProblemError } from '../api/problems.js';
import type { ShipperApi } from '../api/types.js';
import { UsageError } from './errors.js';

const ORDER_NUMBER = /^SO-?\d{1,15}$/i;
const BOL_NUMBER = /^\d{17}$/;

/** Help text for the argument. */
export const SHIPMENT_ARGUMENT = 'the shipment: its id (sh_...), order number (SO-000123) or 17-digit BOL number';

/** What the API's shipment ids look like; another server's may differ, so this only decides whether to add the hint below. */
const SHIPMENT_ID_LIKE = /^sh_/i;

export async function shipmentIdOf(api: ShipperApi, reference: string): Promise<string> {
  const text = reference.trim();
  // Oway's service names an order by its order number alone, and has no lists to look one up in.
  if (api.publishedOnly) return text;
  const query = ORDER_NUMBER.test(text) ? { orderNumber: text } : BOL_NUMBER.test(text) ? { bolNumber: text } : undefined;
  if (!query) {
    if (SHIPMENT_ID_LIKE.test(text)) return reference;
    // `shipment get PO-7001`: most likely the customer's reference. Not found says where to look.
    try {
      await api.getShipment(reference);
    } catch (error) {
      if (error instanceof ProblemError && error.status === 404) throw notFoundByReference(text);
      throw error;
    }
    return reference;
  }
  const { data: page, warnings } = await api.listShipments({ ...query, limit: 2 });
  const [first, second] = page.items;
  // The shipment that carries it could not be read: a damaged record, not "not found" (as by id).
  const damaged = warnings.find((warning) => warning.code === 'RECORD_UNREADABLE' || /damaged|cannot read/.test(warning.message));
  if (!first && damaged) throw new CliError(damaged.message, api.mode === 'remote' ? 'REMOTE_FAILURE' : 'LOCAL_FAILURE');
  if (!first) throw notFound('shipment', text);
  if (second) throw new UsageError(`${text} names more than one shipment (${first.id}, ${second.id}, ...): give the shipment id`);
  return first.id;
}

/** A shipment not found under what is neither an id, an order number nor a BOL number: perhaps a reference. */
function notFoundByReference(text: string): ProblemError {
  const { problem } = notFound('shipment', text);
  const quoted = /^[\w.:/#-]+$/.test(text) ? text : `'${text.replace(/'/g, "'\\''")}'`;
  return new ProblemError({
    ...problem,
    detail: `${problem.detail}: it is not a shipment id (sh_...), an order number (SO-...) or a BOL number; if it is your reference, find it with: shipper shipment list --ref ${quoted}`,
  });
}
