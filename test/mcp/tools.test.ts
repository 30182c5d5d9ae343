/** The MCP tools as generated from the operations table (issue 44): names, kinds, schemas, keys, paths. */
import { mkdtemp, mkdir, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OPERATION_NAMES, operations, type OperationSpec } from '../../src/api/operations.js';
import { derivedIdempotencyKey, pathUnderRoot } from '../../src/mcp/calls.js';
import { kindOf, operationTools, toolNameOf } from '../../src/mcp/tools.js';

describe('tools from the operations table', () => {
  const tools = operationTools({ remote: false });

  it('makes one tool per operation, named after its method; none for a file upload or a signed link’s own operation', () => {
    const offered = OPERATION_NAMES.filter((name) => name !== 'uploadAppointmentDocument' && name !== 'downloadDocument');
    expect(tools.map((tool) => tool.name)).toEqual(offered.map(toolNameOf));
    expect(toolNameOf('createShipment')).toBe('create_shipment');
  });

  it('asks for confirm on every tool that changes a shipment, and on none that reads', () => {
    for (const tool of tools) {
      const properties = tool.inputSchema.properties as Record<string, unknown>;
      expect('confirm' in properties, tool.name).toBe(tool.kind === 'commit');
      if (tool.kind === 'read') expect(tool.annotations.readOnlyHint, tool.name).toBe(true);
      else expect(tool.annotations.readOnlyHint, tool.name).toBe(false);
    }
    const kinds = Object.fromEntries(tools.map((tool) => [tool.name, tool.kind]));
    expect(kinds).toMatchObject({
      create_shipment: 'commit',
      cancel_shipment: 'commit',
      create_shipments: 'commit',
      get_shipment: 'read',
      preview_shipments: 'read',
      create_quote: 'record',
      render_bol: 'document',
    });
  });

  it('makes an operation added to the table (the coming PUT .../confirm) a writing tool that needs confirm', () => {
    const confirm = { ...operations.cancelShipment, method: 'PUT', path: '/v1/shipper/shipment/{shipmentId}/confirm' } as unknown as OperationSpec;
    expect(kindOf('confirmShipment' as never, confirm)).toBe('commit');
    expect(kindOf('getShipment', operations.getShipment)).toBe('read');
  });

  it('puts the body fields beside the path and query parameters, refusing unknown ones', () => {
    const book = tools.find((tool) => tool.name === 'create_shipment')!;
    expect(book.flatBody).toBe(true);
    expect(book.inputSchema.additionalProperties).toBe(false);
    expect(book.inputSchema.required).toEqual(expect.arrayContaining(['orderComponents']));
    const list = tools.find((tool) => tool.name === 'list_shipments')!;
    expect(list.query).toEqual(expect.arrayContaining(['limit', 'cursor', 'orderNumber', 'refNumber']));
    // Nothing of the OpenAPI document that is no JSON Schema, and every $ref resolves in $defs.
    const text = JSON.stringify(tools.map((tool) => tool.inputSchema));
    expect(text).not.toContain('x-extension');
    expect(text).not.toContain('#/components/');
    for (const tool of tools) {
      const defs = (tool.inputSchema.$defs ?? {}) as Record<string, unknown>;
      for (const [, id] of JSON.stringify(tool.inputSchema).matchAll(/"#\/\$defs\/([^"]+)"/g)) expect(defs, `${tool.name} ${id}`).toHaveProperty(id!);
    }
  });
});

describe('derived idempotency keys', () => {
  it('are the same for the same arguments in any order on one day, without confirm, and differ for other arguments or another day', () => {
    const day = '2026-11-18';
    const a = derivedIdempotencyKey('create_shipment', { refNumber: 'PO-1', orderComponents: [{ palletCount: 1, poundsWeight: 100 }], confirm: true }, day);
    const b = derivedIdempotencyKey('create_shipment', { orderComponents: [{ poundsWeight: 100, palletCount: 1 }], refNumber: 'PO-1' }, day);
    const c = derivedIdempotencyKey('create_shipment', { refNumber: 'PO-2', orderComponents: [{ palletCount: 1, poundsWeight: 100 }] }, day);
    const nextDay = derivedIdempotencyKey('create_shipment', { refNumber: 'PO-1', orderComponents: [{ palletCount: 1, poundsWeight: 100 }] }, '2026-11-19');
    expect(a).toBe(b);
    expect(a).not.toBe(c);
    expect(a).not.toBe(nextDay);
    expect(a).toMatch(/^[\x21-\x7E]{1,255}$/);
  });
});

describe('paths under the start directory', () => {
  const outside = (field: string) => ({ problem: { status: 400, violations: [{ field, reason: expect.stringContaining('must be a path under') }] } });
  it('takes relative paths inside it and refuses .., absolute paths outside and symbolic links that lead out', async () => {
    const root = await mkdtemp(join(tmpdir(), 'shipper-mcp-root-'));
    try {
      await expect(pathUnderRoot(root, 'out/bol.pdf', 'path')).resolves.toMatch(/out\/bol\.pdf$/);
      await expect(pathUnderRoot(root, join(root, 'a.pdf'), 'path')).resolves.toMatch(/a\.pdf$/);
      await expect(pathUnderRoot(root, '../a.pdf', 'path')).rejects.toMatchObject(outside('path'));
      await expect(pathUnderRoot(root, '/etc/passwd', 'file')).rejects.toMatchObject(outside('file'));
      await expect(pathUnderRoot(root, '.', 'path')).rejects.toMatchObject(outside('path'));
      await mkdir(join(root, 'sub'));
      await symlink(tmpdir(), join(root, 'sub', 'away'));
      await expect(pathUnderRoot(root, 'sub/away/x.pdf', 'path')).rejects.toMatchObject(outside('path'));
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
