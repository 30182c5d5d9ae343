// Placeholder until the interactive wizard lands.
import type { QuoteOptions } from '../commands/quote.js';
import type { CommandContext } from '../context.js';
import { UsageError } from '../errors.js';

export async function runQuoteWizard(_ctx: CommandContext, _options: QuoteOptions): Promise<void> {
  throw new UsageError('missing --from ZIP, --to ZIP, --component SPEC');
}
