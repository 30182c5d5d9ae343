/**
 * A process of the built CLI costs a Node start (~0.15 s of CPU, seconds of wall time on a loaded
 * machine) where main() in process (helpers/inProcess.ts) proves the same: most of what made
 * `npm test` slow (issue 39, item 22). So a test file starts one (runCli, storeCli, BIN, startServe,
 * spawnCliInPty) only for what needs a real process, and says so here: a new file that spawns
 * fails until it is listed with its reason, and a listed file that no longer spawns must leave
 * the list.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const TEST = join(import.meta.dirname, '..');

/** The files that start the built CLI, and why a process of its own is needed there. */
const NEEDS_A_PROCESS: Record<string, string> = {
  'agreements/notRegular.test.ts': 'a named pipe as an agreement file: a hang must stop a child, not the test worker',
  'agreements/http.test.ts': 'rates and carrier quotes from shipper serve --tariffs',
  'cli/auth.test.ts': 'shipper serve as the token server; processes started together buying one token; login at a terminal prompt',
  'cli/audit.test.ts': 'auditing against a running shipper serve',
  'cli/check.test.ts': 'one shipper check by the bundle (lazily loaded command code)',
  'cli/ebol-readiness.test.ts': 'the eBOL warnings over HTTP from shipper serve',
  'cli/help-version.test.ts': '--version of the bundle (the build baked in)',
  'cli/import-carrier.test.ts': 'remote import against shipper serve',
  'cli/import-concurrency.test.ts': 'imports racing on one store, SIGKILL and SIGINT',
  'cli/inProcess.test.ts': 'holds main() in process to the binary',
  'cli/lifecycle.test.ts': 'ship, confirm and tender by the spawned binary, in remote mode against shipper serve',
  'cli/input-fields.test.ts': 'control characters over HTTP to shipper serve',
  'cli/once.test.ts': 'remote mode against shipper serve, processes racing on counters and one quote',
  'cli/progress.test.ts': 'the progress bar in a pseudo-terminal',
  'cli/remote-booking.test.ts': 'shipper serve behind a proxy that cuts the answer',
  'cli/remote.test.ts': 'remote mode against shipper serve with an API key',
  'cli/serve.test.ts': 'shipper serve: listening line, access log, signals',
  'cli/small-fixes.test.ts': 'remote mode against shipper serve',
  'cli/startup-closure.test.ts': 'the modules the bundle loads at start-up',
  'contract/api.contract.test.ts': 'the contract suite against shipper serve',
  'contract/cli.contract.test.ts': 'the contract suite in remote mode against shipper serve',
  'contract/postgres.contract.test.ts': 'the contract suite against shipper serve on PostgreSQL',
  'docs/guides.test.ts': 'the guides start shipper serve',
  'faults/journal.test.ts': 'imports killed (SIGKILL) at the journal’s kill points',
  'faults/kill.test.ts': 'import, bol --all and shipper serve killed at random points',
  'faults/store.test.ts': 'a damaged store over HTTP from shipper serve',
  'fuzz/server.test.ts': 'hostile HTTP requests to shipper serve',
  'mcp/mcp.test.ts': 'shipper mcp spawned by a real MCP client over stdio (and against shipper serve in remote mode)',
  'printing/documents.test.ts': 'documents of a shipper serve printed in remote mode',
  'printing/print.test.ts': 'Ctrl-C (SIGINT) in the middle of a print run',
  'security/security.test.ts': 'probes against shipper serve; the config file’s mode under a umask',
  'server/credentials.test.ts': 'the token endpoint and checks of shipper serve, several instances on one store, clocks moved by SHIPPER_NOW',
  'server/companies.test.ts': "shipper serve with two companies' keys, on the file store and on PostgreSQL",
  'server/production.test.ts': 'shipper serve’s probes, metrics, logs and drain on signals',
  'server/invoice.test.ts': 'invoices over HTTP from shipper serve',
  'cli/remote-documents.test.ts': 'bol, labels and invoice in remote mode against shipper serve, its links on another origin',
  'server/documents.test.ts': 'document links, invoices and appointment uploads over HTTP from shipper serve, two instances on one store with clocks moved by SHIPPER_NOW',
  'server/limits.test.ts': 'request limits of shipper serve',
  'store/generation.test.ts': 'shipper serve seeing what CLI processes commit while it runs',
  'store/integrity.test.ts': 'bookings by several processes under one fixed clock; shipper serve’s log',
  'store/journal-repair.test.ts': 'a booking killed at a journal kill point; shipper serve on a read-only store',
  'store/update-race.test.ts': 'an HTTP PATCH to shipper serve racing three CLI updates of one shipment',
  'store/postgres/secrets.test.ts': 'the process title of shipper serve in /proc/PID/cmdline',
  'store/postgres/readiness.test.ts': 'shipper serve’s readiness while its PostgreSQL stops and comes back',
  'store/postgres/serve.test.ts': 'two shipper serve on one database, the database going away',
  'store/recordKinds.test.ts': 'each record kind written by one process and read by another (issue 39, item 1)',
  'terminal/completion.test.ts': 'the completion scripts run the binary from a shell',
  'tracking/trackCli.test.ts': 'a 214 imported by the bundle (it loads the tracking code it needs)',
  'wire/published-diff.test.ts': 'the document shipper serve serves at /api-docs/shipper-v1, diffed against the published one',
  'wire/remote-published.test.ts': 'each remote command as the built binary against the mock of the published document (issue 40 asks for the spawned CLI)',
  'wire/sdk-serve.test.ts': 'the official Oway SDK against shipper serve, through the validating proxy of the published document',
  'transit/badLanes.test.ts': 'bad lanes over HTTP from shipper serve',
  'wizard/pty.test.ts': 'the wizard in a pseudo-terminal',
};

const SPAWNS = /\b(runCli|storeCli|BIN|startServe|spawnCliInPty)\b/;

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'helpers' ? [] : testFiles(path);
    return entry.name.endsWith('.test.ts') ? [relative(TEST, path).replaceAll('\\', '/')] : [];
  });
}

describe('processes of the built CLI in the tests', () => {
  const spawning = testFiles(TEST)
    .filter((name) => name !== 'architecture/processes.test.ts')
    .filter((name) => SPAWNS.test(readFileSync(join(TEST, name), 'utf8').replace(/^\s*(\/\/|\*).*$/gm, '')))
    .sort();

  it('are started only by the files listed with the reason they need one (else: runInProcess, helpers/inProcess.ts)', () => {
    expect(spawning.filter((name) => !(name in NEEDS_A_PROCESS))).toEqual([]);
  });

  it('are still started by every file listed', () => {
    expect(Object.keys(NEEDS_A_PROCESS).filter((name) => !spawning.includes(name))).toEqual([]);
  });
});
