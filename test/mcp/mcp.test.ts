/**
 * `shipper mcp` through a real MCP client: the SDK's Client over stdio, spawning the built
 * bin/shipper.js in a temporary directory with its own store (issue 44).
 */
import { spawn } from 'node:child_process';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ISOLATED_SETTINGS, tempDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inProcess.js';
import { PALLETS, CHICAGO_DC_FLAGS, PUBLISHED_NYC, PUBLISHED_PICKUP, confirmable } from '../helpers/fixtures.js';
import { readPdf } from '../bol/pdf-reader.js';
import { startServe, type ServeProcess } from '../helpers/serve.js';
import { testDatabase } from '../helpers/postgres.js';

const NOW = '2026-11-18T18:00:00.000Z';

interface Session {
  client: Client;
  stderr: () => string;
  close: () => Promise<void>;
}

async function connect(cwd: string, args: string[] = [], extraEnv: Record<string, string> = {}, store = join(cwd, 'store')): Promise<Session> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries({ ...process.env, NO_COLOR: '1', ...ISOLATED_SETTINGS, SHIPPER_NOW: NOW, ...extraEnv })) if (value !== undefined) env[key] = value;
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, '--store', store, 'mcp', ...args], cwd, env, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'shipper-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr, close: () => client.close() };
}

type Result = Awaited<ReturnType<Client['callTool']>> & { structuredContent?: Record<string, unknown>; isError?: boolean; content: Array<{ type: string; text?: string }> };

async function call(session: Session, name: string, args: Record<string, unknown>): Promise<Result> {
  return (await session.client.callTool({ name, arguments: args })) as Result;
}

const textOf = (result: Result) => result.content.map((part) => part.text ?? '').join('\n');

const QUOTE = { pickupAddress: PUBLISHED_PICKUP, deliveryAddress: PUBLISHED_NYC, orderComponents: [PALLETS] };
// With the contacts, phones and description the published confirm needs (confirm_shipment confirms it).
const BOOKING = confirmable({ refNumber: 'PO-MCP-1', pickupAddress: PUBLISHED_PICKUP, deliveryAddress: PUBLISHED_NYC, orderComponents: [PALLETS] });

describe('shipper mcp: a real MCP client over stdio', () => {
  let work: { dir: string; cleanup: () => Promise<void> };
  let session: Session;

  beforeAll(async () => {
    work = await tempDir('shipper-mcp-');
    session = await connect(work.dir);
  });
  afterAll(async () => {
    await session?.close();
    await work?.cleanup();
  });

  it('lists the tools of the operations table, each with an input schema that compiles and annotations', async () => {
    const { tools } = await session.client.listTools();
    const names = tools.map((tool) => tool.name);
    for (const name of [
      'create_quote',
      'create_lane_quote',
      'shop_rates',
      'preview_shipments',
      'create_shipment',
      'get_shipment',
      'list_shipments',
      'cancel_shipment',
      'confirm_shipment',
      'get_tracking',
      'list_shipment_events',
      'transit_times',
      'get_invoice',
      'render_bol',
      'render_labels',
      'render_invoice',
      'import_csv',
    ]) {
      expect(names).toContain(name);
    }
    const ajv = new Ajv2020({ strict: true, allErrors: true });
    // The standard formats (date-time of requiredDeliveryBy): ajv-formats is CommonJS, its function the default export's default.
    (((formats as unknown as { default: typeof formats }).default ?? formats) as unknown as (ajv: Ajv2020) => void)(ajv);
    for (const tool of tools) {
      expect(tool.inputSchema.type, tool.name).toBe('object');
      expect(() => ajv.compile(tool.inputSchema), tool.name).not.toThrow();
      expect(typeof tool.annotations?.readOnlyHint, tool.name).toBe('boolean');
      expect(typeof tool.annotations?.destructiveHint, tool.name).toBe('boolean');
      expect(typeof tool.annotations?.idempotentHint, tool.name).toBe('boolean');
    }
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    expect(byName.get('get_shipment')!.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(byName.get('cancel_shipment')!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: true });
    expect(byName.get('confirm_shipment')!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: true });
    expect(byName.get('confirm_shipment')!.inputSchema.required).toEqual(['orderNumber']);
    expect(byName.get('get_tracking')!.annotations).toMatchObject({ readOnlyHint: true });
    expect(byName.get('create_shipment')!.inputSchema.properties).toHaveProperty('confirm');
    expect(byName.get('create_shipment')!.inputSchema.properties).toHaveProperty('idempotencyKey');
    // The body's fields are the tool's own: the schema of the table's ShipmentRequest.
    expect(byName.get('create_shipment')!.inputSchema.properties).toHaveProperty('orderComponents');
    expect(byName.get('render_bol')!.inputSchema.properties).toHaveProperty('path');
  });

  it('quotes, answering the --json JSON and a text summary', async () => {
    const result = await call(session, 'create_quote', QUOTE);
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent!.id).toMatch(/^qt_/);
    expect(result.structuredContent!.quotedPriceInCents).toEqual(expect.any(Number));
    expect(textOf(result)).toContain(String(result.structuredContent!.id));
    const cli = await runInProcess(['--store', join(work.dir, 'store'), '--json', 'quote', 'get', String(result.structuredContent!.id)], { env: { SHIPPER_NOW: NOW } });
    expect(cli.code).toBe(0);
    expect(JSON.parse(cli.stdout).quotedPriceInCents).toBe(result.structuredContent!.quotedPriceInCents);
  });

  it('quotes between ZIP codes with create_lane_quote; create_quote asks for the published Address', async () => {
    const zipOnly = { pickupAddress: { zipCode: '60608' }, deliveryAddress: { zipCode: '10001' }, orderComponents: [PALLETS] };
    const lane = await call(session, 'create_lane_quote', zipOnly);
    expect(lane.isError, textOf(lane)).toBeFalsy();
    expect(lane.structuredContent!.id).toMatch(/^qt_/);
    // The tools' schemas say so: create_quote's stops are the published Address, create_lane_quote's a ZIP code at least.
    const { tools } = await session.client.listTools();
    const schemaOf = (name: string) => JSON.stringify(tools.find((tool) => tool.name === name)!.inputSchema);
    expect(schemaOf('create_quote')).toContain('PublishedAddressInput');
    expect(schemaOf('create_lane_quote')).not.toContain('PublishedAddressInput');
  });

  it('gives the warnings with the answer: in the structured content and as text lines', async () => {
    const result = await call(session, 'create_quote', {
      ...QUOTE,
      orderComponents: [{ palletCount: 6, poundsWeight: 2600, dimensions: { length: 48, width: 48, height: 55 }, stackable: false }],
    });
    expect(result.isError, textOf(result)).toBeFalsy();
    const codes = (result.structuredContent!.warnings as Array<{ code: string }>).map((item) => item.code);
    expect(codes).toContain('NON_STACKABLE_HEIGHT');
    expect(new Set(codes).size).toBe(codes.length);
    expect(textOf(result)).toMatch(/^warning: \[NON_STACKABLE_HEIGHT\] /m);
  });

  it('books nothing without confirm: true, and says what it would book', async () => {
    const result = await call(session, 'create_shipment', BOOKING);
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent!.confirmed).toBe(false);
    expect(textOf(result)).toMatch(/confirm: true/);
    expect(textOf(result)).toMatch(/^would book: quote qt_\S+ \$[\d,]+\.\d\d/m);
    const preview = result.structuredContent!.preview as { items: Array<{ ok: boolean; data: { quotedPriceInCents: number } }> };
    expect(preview.items[0]!.ok).toBe(true);
    const list = await call(session, 'list_shipments', {});
    expect(list.structuredContent!.items).toEqual([]);
  });

  it('books with confirm: true once per arguments, finds, tracks, writes the BOL and cancels the shipment', async () => {
    const booked = await call(session, 'create_shipment', { ...BOOKING, confirm: true });
    expect(booked.isError, textOf(booked)).toBeFalsy();
    const shipment = booked.structuredContent!;
    // Created as published: INITIALIZED until confirm_shipment.
    expect(shipment.orderStatus).toBe('INITIALIZED');
    expect(shipment.orderNumber).toMatch(/^SO-\d+/);

    // A retried call (the same arguments) books once: the derived idempotency key replays it.
    const retried = await call(session, 'create_shipment', { confirm: true, ...BOOKING });
    expect(retried.structuredContent!.id).toBe(shipment.id);
    expect(retried.structuredContent!.replayed).toBe(true);
    expect((await call(session, 'list_shipments', {})).structuredContent!.items).toHaveLength(1);
    // The batch tool derives each item's key the same way: the same request books once across both.
    const batch = await call(session, 'create_shipments', { items: [{ request: BOOKING }], confirm: true });
    expect(batch.isError, textOf(batch)).toBeFalsy();
    expect(batch.structuredContent!.items).toEqual([expect.objectContaining({ ok: true, replayed: true, data: expect.objectContaining({ id: shipment.id }) })]);

    const found = await call(session, 'get_shipment', { orderNumber: shipment.orderNumber });
    expect(found.structuredContent!.id).toBe(shipment.id);
    const listed = await call(session, 'list_shipments', { refNumber: 'PO-MCP-1' });
    expect((listed.structuredContent!.items as Array<{ id: string }>).map((item) => item.id)).toEqual([shipment.id]);

    const tracking = await call(session, 'list_shipment_events', { shipmentId: shipment.orderNumber });
    expect(tracking.isError, textOf(tracking)).toBeFalsy();
    expect(tracking.structuredContent!.orderNumber).toBe(shipment.orderNumber);
    expect(tracking.structuredContent!.trackingStatus).toEqual(expect.any(String));

    const bol = await call(session, 'render_bol', { shipmentId: shipment.orderNumber, path: 'docs/bol.pdf' });
    expect(bol.isError, textOf(bol)).toBeFalsy();
    expect(bol.structuredContent!.path).toBe(join('docs', 'bol.pdf'));
    const pdf = await readPdf(new Uint8Array(await readFile(join(work.dir, 'docs', 'bol.pdf'))));
    expect(pdf.pages.map((page) => page.text).join(' ')).toContain(String(shipment.orderNumber));

    // The published confirm: without confirm: true it says what it would do; with it, INITIALIZED becomes CONFIRMED; a second is the published 400.
    const wouldConfirm = await call(session, 'confirm_shipment', { orderNumber: shipment.orderNumber });
    expect(wouldConfirm.structuredContent!.confirmed).toBe(false);
    expect((await call(session, 'get_shipment', { orderNumber: shipment.orderNumber })).structuredContent!.orderStatus).toBe('INITIALIZED');
    const confirmed = await call(session, 'confirm_shipment', { orderNumber: shipment.orderNumber, confirm: true });
    expect(confirmed.isError, textOf(confirmed)).toBeFalsy();
    expect(confirmed.structuredContent!.orderStatus).toBe('CONFIRMED');
    const confirmedAgain = await call(session, 'confirm_shipment', { orderNumber: shipment.orderNumber, confirm: true });
    expect(confirmedAgain.isError).toBe(true);
    expect(textOf(confirmedAgain)).toContain('order is not in INITIALIZED state');
    const tracked = await call(session, 'get_tracking', { orderNumber: shipment.orderNumber });
    expect(tracked.structuredContent).toMatchObject({ orderNumber: shipment.orderNumber, orderStatus: 'CONFIRMED', trackingStatus: 'NONE' });

    const unconfirmed = await call(session, 'cancel_shipment', { orderNumber: shipment.orderNumber });
    expect(unconfirmed.structuredContent!.confirmed).toBe(false);
    expect((await call(session, 'get_shipment', { orderNumber: shipment.id })).structuredContent!.orderStatus).toBe('CONFIRMED');

    const cancelled = await call(session, 'cancel_shipment', { orderNumber: shipment.orderNumber, confirm: true });
    expect(cancelled.isError, textOf(cancelled)).toBeFalsy();
    expect(cancelled.structuredContent!.orderStatus).toBe('CANCELLED');
  });

  it('writes files only under the directory it was started in', async () => {
    const quote = await call(session, 'create_quote', QUOTE);
    const booked = await call(session, 'create_shipment', {
      quoteId: quote.structuredContent!.id,
      refNumber: 'PO-MCP-2',
      pickupAddress: PUBLISHED_PICKUP,
      deliveryAddress: PUBLISHED_NYC,
      orderComponents: [PALLETS],
      confirm: true,
    });
    expect(booked.isError, textOf(booked)).toBeFalsy();
    const outside = await call(session, 'render_bol', { shipmentId: booked.structuredContent!.id, path: '../escaped.pdf' });
    expect(outside.isError).toBe(true);
    expect(outside.structuredContent!.violations).toEqual([expect.objectContaining({ field: 'path' })]);
    await mkdir(join(work.dir, 'link-parent'));
    await symlink('/tmp', join(work.dir, 'link-parent', 'out'));
    const viaLink = await call(session, 'render_bol', { shipmentId: booked.structuredContent!.id, path: 'link-parent/out/bol.pdf' });
    expect(viaLink.isError).toBe(true);
  });

  it('answers bad input with isError and the violations naming the field, and keeps serving', async () => {
    const negative = await call(session, 'create_quote', { ...QUOTE, orderComponents: [{ ...PALLETS, poundsWeight: -5 }] });
    expect(negative.isError).toBe(true);
    const fields = (negative.structuredContent!.violations as Array<{ field: string }>).map((violation) => violation.field);
    expect(fields.some((field) => field.includes('poundsWeight'))).toBe(true);
    expect(textOf(negative)).toContain('poundsWeight');

    const unknown = await call(session, 'create_quote', { ...QUOTE, colour: 'red' });
    expect(unknown.isError).toBe(true);
    expect(JSON.stringify(unknown.structuredContent!.violations)).toContain('colour');

    const unknownOnRead = await call(session, 'get_shipment', { orderNumber: 'SO-000001', verbose: true });
    expect(unknownOnRead.isError).toBe(true);
    expect(unknownOnRead.structuredContent!.violations).toEqual([expect.objectContaining({ field: 'verbose' })]);

    // A booking without confirm is checked all the same.
    const badBooking = await call(session, 'create_shipment', { ...BOOKING, orderComponents: [{ ...PALLETS, poundsWeight: -5 }] });
    expect(badBooking.isError).toBe(true);

    const after = await call(session, 'create_quote', QUOTE);
    expect(after.isError).toBeFalsy();
    expect(session.stderr()).not.toContain('unexpected');
  });

  it('lists the saved locations, so that a named location becomes an address', async () => {
    const added = await runInProcess(['--store', join(work.dir, 'store'), 'location', 'add', 'chicago-dc', ...CHICAGO_DC_FLAGS]);
    expect(added.code, added.stderr).toBe(0);
    const result = await call(session, 'list_locations', {});
    expect(result.structuredContent!.items).toEqual([expect.objectContaining({ name: 'chicago-dc', address: expect.objectContaining({ zipCode: '60608' }) })]);
    expect(textOf(result)).toContain('chicago-dc');
  });

  it('imports a CSV file as a dry run unless confirmed', async () => {
    const csv = await readFile(new URL('../../templates/import/shipments-sample.csv', import.meta.url), 'utf8');
    await writeFile(join(work.dir, 'orders.csv'), csv);
    const before = ((await call(session, 'list_shipments', { limit: 500 })).structuredContent!.items as unknown[]).length;
    const dry = await call(session, 'import_csv', { file: 'orders.csv' });
    expect(dry.isError, textOf(dry)).toBeFalsy();
    expect(dry.structuredContent!.dryRun).toBe(true);
    expect(((await call(session, 'list_shipments', { limit: 500 })).structuredContent!.items as unknown[]).length).toBe(before);
    const booked = await call(session, 'import_csv', { file: 'orders.csv', confirm: true });
    expect(booked.isError, textOf(booked)).toBeFalsy();
    const summary = booked.structuredContent!.summary as { booked: number; confirmed: number; initialized: number };
    expect(summary.booked).toBeGreaterThan(0);
    // Confirmed as shipper import confirms: each order that has what confirm needs, the rest left INITIALIZED and counted.
    expect(summary.confirmed + summary.initialized).toBe(summary.booked);
    expect(textOf(booked)).toContain(`${summary.confirmed} confirmed, ${summary.initialized} left INITIALIZED`);
    expect(((await call(session, 'list_shipments', { limit: 500 })).structuredContent!.items as unknown[]).length).toBe(before + summary.booked);
    const outside = await call(session, 'import_csv', { file: '/etc/passwd' });
    expect(outside.isError).toBe(true);
  });
});

describe('shipper mcp --read-only', () => {
  let work: { dir: string; cleanup: () => Promise<void> };
  let session: Session;

  beforeAll(async () => {
    work = await tempDir('shipper-mcp-ro-');
    session = await connect(work.dir, ['--read-only']);
  });
  afterAll(async () => {
    await session?.close();
    await work?.cleanup();
  });

  it('lists only reading tools and refuses a call to a writing one', async () => {
    const { tools } = await session.client.listTools();
    expect(tools.length).toBeGreaterThan(0);
    for (const tool of tools) expect(tool.annotations?.readOnlyHint, tool.name).toBe(true);
    const names = tools.map((tool) => tool.name);
    for (const name of ['create_shipment', 'cancel_shipment', 'create_quote', 'import_csv', 'render_bol']) expect(names).not.toContain(name);
    expect(names).toContain('preview_shipments');
    expect(session.client.getInstructions()).toMatch(/^Read-only:/m);

    const refused = await call(session, 'create_shipment', { ...BOOKING, confirm: true });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain('--read-only');
    const list = await call(session, 'list_shipments', {});
    expect(list.structuredContent!.items).toEqual([]);
  });
});

describe('shipper mcp in remote mode (SHIPPER_BASE_URL and SHIPPER_API_KEY, as an MCP client configuration sets them)', () => {
  let work: { dir: string; cleanup: () => Promise<void> };
  let serve: ServeProcess;
  let session: Session;

  beforeAll(async () => {
    work = await tempDir('shipper-mcp-remote-');
    serve = await startServe({ store: join(work.dir, 'server-store'), globalArgs: ['--api-key', 'k-mcp'], env: { SHIPPER_NOW: NOW } });
    await mkdir(join(work.dir, 'out'));
    session = await connect(work.dir, ['--root', 'out'], { SHIPPER_BASE_URL: serve.url, SHIPPER_API_KEY: 'k-mcp' });
  });
  afterAll(async () => {
    await session?.close();
    await serve?.stop();
    await work?.cleanup();
  });

  it('books on the server, and answers a document as its download link or writes it to the path given', async () => {
    const booked = await call(session, 'create_shipment', { ...BOOKING, confirm: true });
    expect(booked.isError, textOf(booked)).toBeFalsy();
    const id = String(booked.structuredContent!.id);
    // The server has it: the CLI against the same server finds it.
    const cli = await runInProcess(['--base-url', serve.url, '--api-key', 'k-mcp', '--json', 'shipment', 'get', id]);
    expect(cli.code, cli.stderr).toBe(0);
    expect(JSON.parse(cli.stdout).orderNumber).toBe(booked.structuredContent!.orderNumber);

    const link = await call(session, 'render_bol', { shipmentId: id });
    expect(link.isError, textOf(link)).toBeFalsy();
    expect(link.structuredContent!.url).toBe(`${serve.url}/v1/shipper/shipment/${id}/bol`);
    const written = await call(session, 'render_labels', { shipmentId: id, path: 'labels.pdf' });
    expect(written.isError, textOf(written)).toBeFalsy();
    // --root out: the path is under that directory.
    expect((await readFile(join(work.dir, 'out', 'labels.pdf'))).subarray(0, 5).toString()).toBe('%PDF-');
    const above = await call(session, 'render_labels', { shipmentId: id, path: '../labels.pdf' });
    expect(above.isError).toBe(true);
    expect(session.stderr()).toContain('remote mode');
  });
});

describe('shipper mcp when the client closes its input', () => {
  it('answers the calls under way, writes only JSON-RPC on stdout, and exits 0', async () => {
    const work = await tempDir('shipper-mcp-eof-');
    try {
      const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', ...ISOLATED_SETTINGS, SHIPPER_NOW: NOW };
      for (const key of Object.keys(env)) if (env[key] === undefined) delete env[key];
      const child = spawn(process.execPath, [BIN, '--store', join(work.dir, 'store'), 'mcp'], { cwd: work.dir, env, stdio: ['pipe', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
      const messages = [
        { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'pipe', version: '1' } } },
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'create_quote', arguments: QUOTE } },
      ];
      child.stdin.end(messages.map((message) => JSON.stringify(message)).join('\n') + '\n');
      expect(await exited, stderr).toBe(0);
      const lines = stdout.split('\n').filter((line) => line !== '');
      const answers = lines.map((line) => JSON.parse(line) as { id?: number; result?: { structuredContent?: { id?: string } } });
      expect(answers.every((answer) => 'jsonrpc' in answer)).toBe(true);
      expect(answers.find((answer) => answer.id === 2)?.result?.structuredContent?.id).toMatch(/^qt_/);
      expect(stderr).toContain('shipper mcp: serving');
    } finally {
      await work.cleanup();
    }
  });
});

describe('shipper mcp on a PostgreSQL store (--store postgres://...)', () => {
  it('books into the database the CLI then reads', async () => {
    const work = await tempDir('shipper-mcp-pg-');
    const url = await testDatabase();
    let session: Session | undefined;
    try {
      const migrated = await runInProcess(['--store', url, 'db', 'migrate']);
      expect(migrated.code, migrated.stderr).toBe(0);
      session = await connect(work.dir, [], {}, url);
      const booked = await call(session, 'create_shipment', { ...BOOKING, confirm: true });
      expect(booked.isError, textOf(booked)).toBeFalsy();
      const cli = await runInProcess(['--store', url, '--json', 'shipment', 'list']);
      expect(cli.code, cli.stderr).toBe(0);
      expect((JSON.parse(cli.stdout) as { items: Array<{ id: string }> }).items.map((item) => item.id)).toEqual([booked.structuredContent!.id]);
    } finally {
      await session?.close();
      await work.cleanup();
    }
  });
});
