/**
 * Carrier agreements from the command line: `shipper tariff check DIR` (every fault as
 * `file:line`, exit 5), `shipper fuel import FILE` (weekly DOE/EIA diesel prices into the store)
 * and `shipper fuel show --carrier SCAC --date D` (which week's price and which percentage apply).
 */
import type { Command } from 'commander';
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { CommandContext, ContextFactory } from '../context.js';
import type { ShipperCommand } from '../examples.js';
import { CliError, UsageError } from '../errors.js';
import { NotRegularFileError, readBoundedRegularFile } from '../../fs/regularFile.js';

async function runTariffCheck(ctx: CommandContext, dir: string): Promise<void> {
  const { agreementsDirOf, loadAgreementDirectory } = await import('../../agreements/loadAgreements.js');
  // A directory named on the command line that is not there is a usage error (2), as a missing input file is; faults in one are 5.
  if (dir !== 'samples' && !(await stat(resolve(dir)).catch(() => undefined))) throw new CliError(`${dir}: no such directory`, 'INPUT_FILE');
  const { agreements, faults } = await loadAgreementDirectory(agreementsDirOf(dir === 'samples' ? dir : resolve(dir)));
  if (ctx.io.options.json) {
    ctx.io.json({
      ok: faults.length === 0,
      agreements: agreements.map(({ name, agreement, baseRates }) => ({
        directory: name,
        scac: agreement.scac,
        carrierName: agreement.carrierName,
        agreement: agreement.agreement,
        baseRateRows: baseRates.rows,
      })),
      faults,
    });
  } else {
    for (const fault of faults) ctx.io.error(`${fault.where}: ${fault.message}`);
    for (const { name, agreement, baseRates, transit, fuel } of agreements) {
      const extras = [transit && 'transit', fuel && `fuel table (${fuel.versions.length} version${fuel.versions.length === 1 ? '' : 's'})`].filter(Boolean).join(', ');
      ctx.io.info(
        `${name}: ${agreement.scac} ${agreement.carrierName}, agreement ${agreement.agreement} (${agreement.effective} to ${agreement.expires}), ${baseRates.rows} base rate rows${extras ? `, ${extras}` : ''}`,
      );
    }
  }
  if (faults.length > 0)
    throw new CliError(`${faults.length} fault${faults.length === 1 ? '' : 's'} in the agreements of ${dir}: nothing is priced with them until fixed`, 'LOCAL_FAILURE', {
      jsonWritten: ctx.io.options.json,
    });
  if (!ctx.io.options.json) ctx.io.info(`${agreements.length} agreement${agreements.length === 1 ? '' : 's'} OK`);
}

/** A weekly price file is small (the whole series since 1994 is about 40 KB); anything near this is not one. */
const MAX_FUEL_FILE_BYTES = 4 * 1024 * 1024;

async function readPriceFile(file: string): Promise<string> {
  let bytes: Buffer | undefined;
  try {
    bytes = await readBoundedRegularFile(file, MAX_FUEL_FILE_BYTES);
  } catch (error) {
    if (error instanceof NotRegularFileError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new CliError(
      `cannot read ${file}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'a directory' : (code ?? 'unreadable')}`,
      code === 'ENOENT' || code === 'EISDIR' ? 'INPUT_FILE' : 'LOCAL_FAILURE',
    );
  }
  if (bytes) return bytes.toString('utf8');
  throw new CliError(`${file} is larger than 4 MiB: a weekly price file holds at most 5,000 weeks; nothing imported`, 'REJECTED');
}

async function runFuelImport(ctx: CommandContext, file: string): Promise<void> {
  const [{ parseFuelHistory, usdPerGallonOf }, { guardStore }, { utcDateOf }, now] = await Promise.all([
    import('../../domain/agreements/fuelHistory.js'),
    import('../../api/local/records.js'),
    import('../../domain/dates.js'),
    ctx.clock(),
  ]);
  const text = await readPriceFile(file);
  // Weeks from the start of the series (1994-03-21) to a week after today, at most 5,000 a file.
  const { weeks, faults } = parseFuelHistory(text, { today: utcDateOf(now()) });
  if (faults.length > 0) {
    for (const fault of faults.slice(0, 20)) ctx.io.error(`${file}:${fault.line}: ${fault.message}`);
    throw new CliError(`${faults.length} bad line${faults.length === 1 ? '' : 's'} in ${file}: nothing imported`, 'REJECTED');
  }
  if (weeks.length === 0) throw new CliError(`no weekly prices in ${file}: expected EIA's CSV download or the header week,usdPerGallon`, 'REJECTED');
  // The store in use (--store: a directory or a PostgreSQL database), where the engine reads them.
  const store = await ctx.store();
  // One unit of work: the whole file or nothing; a week imported again takes the new price.
  const result = await guardStore(() =>
    store.withTransaction(async (tx) => {
      const known = new Map((await tx.fuelPrices.list()).map((price) => [price.week, price.usdPerGallon]));
      const prices = weeks.map(({ week, mills }) => ({ week, usdPerGallon: usdPerGallonOf(mills) }));
      const added = prices.filter((price) => !known.has(price.week)).length;
      const changed = prices.filter((price) => known.has(price.week) && known.get(price.week) !== price.usdPerGallon).length;
      tx.fuelPrices.putMany(prices);
      return { added, changed, total: new Set([...known.keys(), ...prices.map((price) => price.week)]).size };
    }),
  );
  const sorted = weeks.map((week) => week.week).sort();
  if (ctx.io.options.json) return ctx.io.json({ ...result, from: sorted[0], to: sorted.at(-1) });
  ctx.io.info(
    `imported ${weeks.length} week${weeks.length === 1 ? '' : 's'} (${sorted[0]} to ${sorted.at(-1)}): ${result.added} new, ${result.changed} changed; ${result.total} in the store`,
  );
}

interface FuelShowOptions {
  carrier?: string;
  date?: string;
}

async function runFuelShow(ctx: CommandContext, options: FuelShowOptions): Promise<void> {
  if (!options.carrier || !options.date)
    throw new UsageError('fuel show needs --carrier SCAC and --date YYYY-MM-DD', 'example: shipper fuel show --carrier SAML --date 2026-12-02');
  const { isoDateSchema } = await import('../../domain/schemas.js');
  if (!isoDateSchema.safeParse(options.date).success) throw new UsageError(`--date ${options.date} is not a date YYYY-MM-DD`);
  const local = await ctx.localApi();
  const agreements = await local.agreements.load();
  if (!local.agreements.configured) throw new UsageError('no carrier agreements: give --tariffs DIR (or SHIPPER_TARIFFS, config set tariffs DIR; "samples": the shipped samples)');
  const scac = options.carrier.toUpperCase();
  const carrier = agreements.find((item) => item.agreement.scac === scac);
  if (!carrier) throw new CliError(`no agreement with ${scac}; loaded: ${agreements.map((item) => item.agreement.scac).join(', ')}`, 'NOT_FOUND');
  const fuel = await import('../../domain/agreements/fuel.js');
  const { toDecimalString } = await import('../../domain/agreements/ratio.js');
  const [{ guardStore }, { historyOf }] = await Promise.all([import('../../api/local/records.js'), import('../../domain/agreements/fuelHistory.js')]);
  const history = historyOf(await guardStore(() => local.store.fuelPrices.list({ to: options.date })));
  const table = carrier.fuel;
  const indexWeek = table ? fuel.indexMondayFor(options.date, table.effectiveDaysAfterIndexMonday) : undefined;
  const version = table ? fuel.versionInForce(table, options.date) : undefined;
  const price = indexWeek ? fuel.indexPriceFor(history, indexWeek) : undefined;
  const percent = version && price ? toDecimalString(fuel.fuelPercentFor(version, price.mills)) : null;
  const answer = {
    scac,
    carrierName: carrier.agreement.carrierName,
    date: options.date,
    fuelTable: Boolean(table),
    indexWeek: indexWeek ?? null,
    priceWeek: price?.week ?? null,
    usdPerGallon: price ? fuel.formatMills(price.mills).slice(1) : null,
    stale: price?.stale ?? false,
    substituted: price?.substituted ?? false,
    tableFrom: version?.from ?? null,
    percent,
  };
  if (ctx.io.options.json) return ctx.io.json(answer);
  if (!table) return ctx.io.out(`${scac} ${carrier.agreement.carrierName}: the agreement has no fuel table (no fuel surcharge)`);
  ctx.io.out(`${scac} ${carrier.agreement.carrierName}, pickup ${options.date}`);
  ctx.io.out(`  Index week   ${indexWeek} (Monday; in effect ${table.effectiveDaysAfterIndexMonday} day${table.effectiveDaysAfterIndexMonday === 1 ? '' : 's'} after)`);
  ctx.io.out(
    `  Price        ${price ? `${fuel.formatMills(price.mills)}/gal of the week of ${price.week}${price.substituted ? ` (the index week has no price${price.stale ? '; more than 14 days old' : ''})` : ''}` : 'none in the store (shipper fuel import FILE)'}`,
  );
  ctx.io.out(`  Table        ${version ? `version from ${version.from}` : `none in force (the first starts ${table.versions[0]!.from})`}`);
  ctx.io.out(`  Surcharge    ${percent !== null ? `${percent} %` : 'none'}`);
}

export function registerAgreementCommands(program: ShipperCommand, context: ContextFactory): void {
  program
    .command('tariff')
    .description('carrier agreement directories (--tariffs DIR)')
    .examples('shipper tariff check ./agreements', 'shipper tariff check samples')
    .command('check <dir>')
    .description('validate every carrier agreement of a directory; each fault as file:line (exit 5)')
    .examples('shipper tariff check ./agreements', 'shipper tariff check samples')
    .addHelpText('after', '\nFormat: docs/agreements.md')
    .action(async (dir: string, _options: unknown, command: Command) => runTariffCheck(context(command), dir));

  const fuel = program
    .command('fuel')
    .description('weekly DOE/EIA diesel prices for the fuel surcharges of carrier agreements')
    .examples('shipper fuel import diesel.csv', 'shipper --tariffs samples fuel show --carrier SAML --date 2026-12-02');
  fuel
    .command('import <file>')
    .description("import weekly US on-highway diesel prices: EIA's CSV download (EMD_EPD2D_PTE_NUS_DPG) or week,usdPerGallon")
    .examples('shipper fuel import diesel.csv')
    .addHelpText('after', '\nA file with the header week,usdPerGallon has lines such as 2026-11-16,3.712 (the week is its Monday).')
    .action(async (file: string, _options: unknown, command: Command) => runFuelImport(context(command), file));
  fuel
    .command('show')
    .description("which week's diesel price and which fuel surcharge percentage a carrier's agreement applies on a pickup date")
    .option('--carrier <scac>', 'the carrier (its agreement under --tariffs)')
    .option('--date <date>', 'the pickup date, YYYY-MM-DD')
    .examples('shipper --tariffs samples fuel show --carrier SAML --date 2026-12-02')
    .action(async (options: FuelShowOptions, command: Command) => runFuelShow(context(command), options));
}
