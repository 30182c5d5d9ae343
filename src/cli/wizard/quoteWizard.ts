/**
 * `shipper quote` on a terminal without components (or with -i): wires the real prompter, API,
 * geodata, saved locations and file system into the wizard flow. Without a terminal it never
 * prompts: it fails with exit 2 naming the flags that are missing.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { writeFileDurably } from '../../fs/durableWrite.js';
import type { ShipperApi } from '../../api/types.js';
import { parseComponentSpec } from '../componentSpec.js';
import type { CommandContext } from '../context.js';
import { normaliseAccessorials, quoteRequestFromOptions, type QuoteOptions } from '../quoteRequest.js';
import { UsageError } from '../errors.js';
import { runWizardFlow, type AccessorialChoice } from './flow.js';
import { createInquirerPrompter } from './prompter.js';

/** The accessorials SPEC section 3 names; a remote server's tariff is not known to the client. */
export const STANDARD_ACCESSORIALS: AccessorialChoice[] = [
  { code: 'LIFTGATE_PICKUP', description: 'Liftgate at pickup' },
  { code: 'LIFTGATE_DELIVERY', description: 'Liftgate at delivery' },
  { code: 'RESIDENTIAL_DELIVERY', description: 'Residential delivery' },
  { code: 'INSIDE_DELIVERY', description: 'Inside delivery' },
  { code: 'APPOINTMENT', description: 'Delivery appointment' },
];

/** The local tariff's accessorials with their prices; the standard list for a remote server. */
async function accessorialChoices(api: ShipperApi): Promise<AccessorialChoice[]> {
  const local = api as ShipperApi & { loadTariff?: () => Promise<{ accessorials: Record<string, { description: string; amountInCents: number }> }> };
  if (api.mode !== 'local' || typeof local.loadTariff !== 'function') return STANDARD_ACCESSORIALS;
  const tariff = await local.loadTariff();
  return Object.entries(tariff.accessorials).map(([code, { description, amountInCents }]) => ({ code, description, amountInCents }));
}

/** The carriers of the loaded agreements (local mode with --tariffs); none otherwise. */
async function agreementCarriers(api: ShipperApi): Promise<Array<{ scac: string; name: string }>> {
  const local = api as ShipperApi & { agreements?: { load(): Promise<Array<{ agreement: { scac: string; carrierName: string } }>> } };
  if (api.mode !== 'local' || !local.agreements) return [];
  return (await local.agreements.load()).map(({ agreement }) => ({ scac: agreement.scac, name: agreement.carrierName }));
}

export async function runQuoteWizard(ctx: CommandContext, options: QuoteOptions): Promise<void> {
  if (!ctx.io.canPrompt) {
    quoteRequestFromOptions(options); // names the missing flags (exit 2)
    throw new UsageError('--interactive needs a terminal (and no --json)', 'drop -i to quote with the flags given');
  }
  const api = await ctx.api();
  await runWizardFlow(
    {
      prompter: await createInquirerPrompter(ctx.io),
      api,
      io: ctx.io,
      zips: await ctx.zips(),
      // Saved locations live in the local store, in remote mode too.
      locations: await ctx.locations(),
      now: await ctx.clock(),
      accessorials: await accessorialChoices(api),
      resolvePath: (path) => resolve(path),
      fileExists: (path) => existsSync(path),
      // Whole or not at all, and never over a file that appeared after the name was asked.
      writeFile: async (path, bytes) => {
        await writeFileDurably(path, bytes, { whenExists: 'refuse' });
      },
      mode: ctx.mode,
      carriers: (await ctx.settings()).carriers,
      agreementCarriers: await agreementCarriers(api),
    },
    {
      from: options.from,
      to: options.to,
      pickupDate: options.pickupDate,
      accessorials: normaliseAccessorials(options.accessorial),
      components: options.component.map(parseComponentSpec),
    },
  );
}
