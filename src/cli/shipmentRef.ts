/**
 * The shipment a command names, as people have it at hand: its id (`sh_...`), its order number
 * (`SO-000123`, as printed on the BOL and the labels; `so123` works too) or its 17-digit BOL
 * number (the barcode). Order and BOL numbers are looked up through the list filters, so the
 * same words work in local and remote mode.
 */
import { CliError, ExitCode, notFound } from '../api/problems.js';
import type { ShipperApi } from '../api/types.js';
import { UsageError } from './errors.js';

const ORDER_NUMBER = /^SO-?\d{1,15}$/i;
const BOL_NUMBER = /^\d{17}$/;

/** Help text for the argument. */
export const SHIPMENT_ARGUMENT = 'the shipment: its id (sh_...), order number (SO-000123) or 17-digit BOL number';

export async function shipmentIdOf(api: ShipperApi, reference: string): Promise<string> {
  const text = reference.trim();
  const query = ORDER_NUMBER.test(text) ? { orderNumber: text } : BOL_NUMBER.test(text) ? { bolNumber: text } : undefined;
  if (!query) return reference;
  const { data: page, warnings } = await api.listShipments({ ...query, limit: 2 });
  const [first, second] = page.items;
  // The shipment that carries it could not be read: a damaged record, not "not found" (as by id).
  const damaged = warnings.find((warning) => /damaged|cannot read/.test(warning));
  if (!first && damaged) throw new CliError(damaged, api.mode === 'remote' ? ExitCode.remote : ExitCode.local);
  if (!first) throw notFound('shipment', text);
  if (second) throw new UsageError(`${text} names more than one shipment (${first.id}, ${second.id}, ...): give the shipment id`);
  return first.id;
}
