/**
 * `shipper mcp`: the operations as Model Context Protocol tools over stdio, on the official SDK's
 * low-level Server (the tools' JSON Schemas are ours, from the operations table: see tools.ts).
 * It runs on the CommandContext's ShipperApi, so an assistant gets the engine and mode the CLI has
 * in that directory: the local store, --store postgres://..., or remote with the saved profile.
 * Standard output carries the protocol only; warnings and logs go to stderr.
 */
import { dirname } from 'node:path';
import { Writable } from 'node:stream';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { constraintViolation } from '../api/problems.js';
import { serverRootOf } from '../api/wire.js';
import type { CommandContext } from '../cli/context.js';
import { IO } from '../cli/output.js';
import { writeFileDurably } from '../fs/durableWrite.js';
import { makeDirectory } from '../fs/makeDirectory.js';
import { VERSION } from '../cli/version.js';
import { callOperation, errorResult, failureResult, pathUnderRoot, readOnlyRefusal, type CallContext, type ToolResult } from './calls.js';
import { importTool, locationsTool, operationTools } from './tools.js';

type JsonObject = Record<string, unknown>;

export interface McpOptions {
  readOnly: boolean;
  /** The directory files are read from and written to (the working directory). */
  root: string;
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

/** Serves until the client closes standard input. */
export async function serveMcp(ctx: CommandContext, options: McpOptions): Promise<void> {
  const settings = await ctx.settings();
  const remote = settings.mode === 'remote';
  const [api, now] = await Promise.all([ctx.api(), ctx.clock()]);
  const log = (line: string) => void options.stderr.write(`${line}\n`);
  const all = [...operationTools({ remote }), importTool({ remote }), locationsTool({ remote })];
  const offered = options.readOnly ? all.filter((tool) => tool.kind === 'read') : all;
  const byName = new Map(all.map((tool) => [tool.name, tool]));
  const calls: CallContext = {
    api,
    root: options.root,
    readOnly: options.readOnly,
    now,
    serverRoot: remote && settings.baseUrl ? serverRootOf(settings.baseUrl) : undefined,
    writeFile: async (path, bytes) => {
      // The path is under the root (checked): its missing directories are made, as `shipper bol -o` does.
      await makeDirectory(dirname(path));
      return writeFileDurably(path, bytes);
    },
    log,
  };

  const server = new Server(
    { name: 'shipper', version: VERSION },
    {
      capabilities: { tools: {} },
      instructions: [
        `shipper ${VERSION}: LTL freight in ${remote ? `remote mode (${calls.serverRoot ?? 'server'})` : 'local mode'}.`,
        options.readOnly
          ? 'Read-only: find (get_shipment, list_shipments, list_quotes), track (list_shipment_events), price without storing (preview_shipments, transit_times), invoices (get_invoice), saved locations (list_locations).'
          : 'Quote (create_quote, shop_rates), check freight (preview_shipments), book (create_shipment), find (get_shipment, list_shipments), track (list_shipment_events), documents (render_bol, render_labels, render_invoice), cancel (cancel_shipment), import a CSV (import_csv), saved locations (list_locations).',
        options.readOnly
          ? ''
          : 'Tools that book, cancel or change a shipment do nothing without confirm: true: call them first without it to see what they would do, and confirm with the user.',
        'Shipments are named by id (sh_...), order number (SO-000123) or BOL number. Money is in cents.',
      ]
        .filter(Boolean)
        .join('\n'),
    },
  );

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: offered.map((tool) => ({ name: tool.name, title: tool.annotations.title, description: tool.description, inputSchema: tool.inputSchema, annotations: tool.annotations })),
  }));

  // Calls under way: when the client closes our input, they are answered before the server closes.
  const pending = new Set<Promise<ToolResult>>();
  server.setRequestHandler(CallToolRequestSchema, (request) => {
    const answer = answerCall(request.params.name, (request.params.arguments ?? {}) as JsonObject);
    pending.add(answer);
    void answer.finally(() => pending.delete(answer));
    return answer;
  });

  const answerCall = async (name: string, args: JsonObject): Promise<ToolResult> => {
    const tool = byName.get(name);
    if (!tool) {
      return errorResult(constraintViolation([{ field: 'name', reason: `${name} is no tool of shipper; tools/list names them` }]).problem);
    }
    if (options.readOnly && tool.kind !== 'read') return readOnlyRefusal(name);
    try {
      if (tool.operation) return await callOperation(tool, args, calls);
      if (tool.name === 'list_locations') return await callLocations(ctx, args);
      return await callImport(ctx, args, calls);
    } catch (error) {
      return failureResult(error, log);
    }
  };

  const transport = new StdioServerTransport(options.stdin as never, options.stdout as never);
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    // The client ends the session by closing our standard input.
    const finish = async () => {
      while (pending.size > 0) await Promise.allSettled([...pending]);
      // The SDK sends an answer a few microtasks after its handler resolves.
      await new Promise((next) => setImmediate(next));
      await transport.close();
    };
    options.stdin.once('end', () => void finish());
    options.stdin.once('close', () => void finish());
  });
  server.onerror = (error) => log(`shipper mcp: ${error.message}`);
  await server.connect(transport);
  log(`shipper mcp: serving ${offered.length} tools over stdio (${remote ? 'remote' : 'local'} mode${options.readOnly ? ', read-only' : ''})`);
  await closed;
}

async function callLocations(ctx: CommandContext, args: JsonObject): Promise<ToolResult> {
  const unknown = Object.keys(args);
  if (unknown.length > 0) throw constraintViolation(unknown.map((key) => ({ field: key, reason: `${key} is not a field of list_locations` })));
  const items = await (await ctx.locations()).list();
  const lines = [
    `${items.length} saved location(s)`,
    ...items.map((item) => `- ${item.name}: ${[item.address.name, item.address.city, item.address.state, item.address.zipCode].filter(Boolean).join(', ')}`),
  ];
  return { content: [{ type: 'text', text: lines.join('\n') }], structuredContent: { items } };
}

/** import_csv: `shipper import` itself, its --json document captured instead of printed. */
async function callImport(ctx: CommandContext, args: JsonObject, calls: CallContext): Promise<ToolResult> {
  const known = new Set(['file', 'confirm', 'skipInvalid', 'allowDuplicateRef', 'encoding']);
  const unknown = Object.keys(args).filter((key) => !known.has(key));
  const violations = unknown.map((key) => ({ field: key, reason: `${key} is not a field of import_csv` }));
  if (typeof args.file !== 'string' || args.file === '') violations.push({ field: 'file', reason: 'file is required: the CSV file' });
  for (const flag of ['confirm', 'skipInvalid', 'allowDuplicateRef']) {
    if (args[flag] !== undefined && typeof args[flag] !== 'boolean') violations.push({ field: flag, reason: `${flag} is true or false` });
  }
  const encodings = ['utf8', 'utf16le', 'utf16be', 'windows-1252'];
  if (args.encoding !== undefined && !encodings.includes(String(args.encoding))) violations.push({ field: 'encoding', reason: `encoding is one of ${encodings.join(', ')}` });
  if (violations.length > 0) throw constraintViolation(violations);
  const file = await pathUnderRoot(calls.root, args.file as string, 'file');

  let stdout = '';
  let stderr = '';
  const sink = (append: (text: string) => void) =>
    new Writable({
      write(chunk: Buffer | string, _encoding, done) {
        append(chunk.toString());
        done();
      },
    });
  const streams = { stdout: sink((text) => (stdout += text)), stderr: sink((text) => (stderr += text)), stdin: process.stdin };
  const io = new IO(streams, { json: true, color: false, quiet: false }, ctx.env);
  // The same context (its API and store, already open) with this IO: the import writes its --json document there.
  await ctx.api();
  const captured = Object.create(ctx, { io: { value: io } }) as CommandContext;
  const dryRun = args.confirm !== true;
  const { runImport } = await import('../cli/commands/importRun.js');
  let failure: unknown;
  try {
    await runImport(captured, file, {
      dryRun,
      skipInvalid: args.skipInvalid === true,
      allowDuplicateRef: args.allowDuplicateRef === true,
      encoding: args.encoding as never,
    });
  } catch (error) {
    failure = error;
  }
  const document = parseDocument(stdout);
  const warnings = stderr
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.startsWith('warning:'));
  if (failure !== undefined) {
    const result = failureResult(failure, calls.log);
    if (document) result.structuredContent = { ...document, ...(result.structuredContent ?? {}) };
    return result;
  }
  const summary = (document?.summary ?? {}) as JsonObject;
  const line = dryRun
    ? `dry run of ${args.file as string}, nothing booked: ${String(summary.valid ?? 0)} valid shipment(s) of ${String(summary.shipments ?? 0)}. Call import_csv again with confirm: true to book them.`
    : `imported ${args.file as string}: ${String(summary.booked ?? 0)} shipment(s) booked, ${String(summary.alreadyBooked ?? 0)} already booked earlier; ${String(summary.confirmed ?? 0)} confirmed, ${String(summary.initialized ?? 0)} left INITIALIZED (each with a NOT_CONFIRMED warning naming what confirm needs; confirm_shipment confirms it once it has them)`;
  return { content: [{ type: 'text', text: [line, ...warnings].join('\n') }], structuredContent: { ...(document ?? {}), confirmed: !dryRun } };
}

function parseDocument(text: string): JsonObject | undefined {
  try {
    return text.trim() === '' ? undefined : (JSON.parse(text) as JsonObject);
  } catch {
    return undefined;
  }
}
