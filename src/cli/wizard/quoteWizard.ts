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
import { ProblemError } from '../../api/problems.js';
import { runWizardFlow, type AccessorialChoice } from './flow.js';
import { createInquirerPrompter } from './prompter.js';

/** The accessorials SPEC section 3 names: offered by a server without GET /v1/shipper/accessorials. */
export const STANDARD_ACCESSORIALS: AccessorialChoice[] = [
  { code: 'LIFTGATE_PICKUP', description: 'Liftgate at pickup' },
  { code: 'LIFTGATE_DELIVERY', description: 'Liftgate at delivery' },
  { code: 'RESIDENTIAL_DELIVERY', description: 'Residential delivery' },
  { code: 'INSIDE_DELIVERY', description: 'Inside delivery' },
  { code: 'APPOINTMENT', description: 'Delivery appointment' },
];

/**
 * What the service prices, asked of the API in both modes: the accessorials to offer (the tariff's
 * with their charges, and those only carriers price) and the carriers whose agreements are loaded.
 */
export async function pricingChoices(api: ShipperApi): Promise<{ accessorials: AccessorialChoice[]; agreementCarriers: Array<{ scac: string; name: string }> }> {
  try {
    const { data } = await api.listAccessorials();
    return {
      accessorials: data.items.map((item) => ({
        code: item.code,
        description: item.description ?? '',
        amountInCents: item.amountInCents ?? undefined,
        carriers: item.carriers.map((carrier) => carrier.scac),
      })),
      agreementCarriers: data.carriers.map(({ scac, name }) => ({ scac, name })),
    };
  } catch (error) {
    // A server of the API without this extension: the codes SPEC names, and no carriers to offer.
    if (error instanceof ProblemError && (error.status === 404 || error.status === 405 || error.status === 501))
      return { accessorials: STANDARD_ACCESSORIALS, agreementCarriers: [] };
    throw error;
  }
}

export async function runQuoteWizard(ctx: CommandContext, options: QuoteOptions): Promise<void> {
  if (!ctx.io.canPrompt) {
    quoteRequestFromOptions(options); // names the missing flags (exit 2)
    throw new UsageError('--interactive needs a terminal (and no --json)', 'drop -i to quote with the flags given');
  }
  const api = await ctx.api();
  const { accessorials, agreementCarriers } = await pricingChoices(api);
  await runWizardFlow(
    {
      prompter: await createInquirerPrompter(ctx.io),
      api,
      io: ctx.io,
      zips: await ctx.zips(),
      // Saved locations live in the local store, in remote mode too.
      locations: await ctx.locations(),
      now: await ctx.clock(),
      accessorials,
      resolvePath: (path) => resolve(path),
      fileExists: (path) => existsSync(path),
      // Whole or not at all, and never over a file that appeared after the name was asked.
      writeFile: async (path, bytes) => {
        await writeFileDurably(path, bytes, { whenExists: 'refuse' });
      },
      carriers: (await ctx.settings()).carriers,
      agreementCarriers,
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
