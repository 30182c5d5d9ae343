/** The route table, and that it agrees with the OpenAPI document operation by operation. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../src/api/openapi.js';
import { operations } from '../../src/api/operations.js';
import { matchRoute, requestUrl } from '../../src/server/routes.js';

describe('matchRoute', () => {
  it('maps every operation of the OpenAPI document', () => {
    const paths = openApiDocument().paths as Record<string, Record<string, { operationId: string }>>;
    let count = 0;
    for (const [template, item] of Object.entries(paths)) {
      for (const [method, operation] of Object.entries(item)) {
        const path = template.replace(/\{\w+\}/g, 'qt_01JD3Y7T9Q2W5E8R1T4Y7U0I3Z');
        const match = matchRoute(method.toUpperCase(), path);
        if (operation.operationId === 'getApiDescription') expect(match).toEqual({ kind: 'openapi' });
        // The token endpoint is served before routing (server.ts), not an operation of the table.
        else if (operation.operationId === 'getToken') expect(template).toBe('/v1/auth/token');
        else expect(match.kind === 'operation' && ((operations[match.operation] as { operationId?: string }).operationId ?? match.operation)).toBe(operation.operationId);
        count++;
      }
    }
    // Operations that share a method and path (the invoice as JSON or PDF, by Accept) are one OpenAPI operation.
    expect(count).toBe(new Set(Object.values(operations).map((spec) => `${spec.method} ${spec.path}`)).size + 2);
  });

  it('hands the raw id to the operation', () => {
    expect(matchRoute('GET', '/v1/shipper/shipment/sh_1/bol')).toEqual({ kind: 'operation', operation: 'renderBol', params: ['sh_1'] });
  });

  it('answers a path without ids the same each time (kept), and per method', () => {
    const first = matchRoute('POST', '/v1/shipper/quote');
    expect(first).toEqual({ kind: 'operation', operation: 'createQuote', params: [] });
    expect(matchRoute('POST', '/v1/shipper/quote')).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(matchRoute('GET', '/v1/shipper/quote')).toEqual({ kind: 'operation', operation: 'listQuotes', params: [] });
    expect(matchRoute('POST', '/v1/shipper/quote/')).toEqual({ kind: 'not-found' });
    // A path with an id is matched anew: each request has its own params.
    expect(matchRoute('GET', '/v1/shipper/quote/qt_1')).not.toBe(matchRoute('GET', '/v1/shipper/quote/qt_1'));
  });

  it('answers HEAD on GET routes', () => {
    expect(matchRoute('HEAD', '/v1/shipper/quote/qt_1')).toMatchObject({ kind: 'operation', operation: 'getQuote' });
  });

  it('tells unknown paths from known paths with another method', () => {
    expect(matchRoute('GET', '/v1/shipper/quotes')).toEqual({ kind: 'not-found' });
    expect(matchRoute('GET', '/v1/shipper/quote/qt_1/bol')).toEqual({ kind: 'not-found' });
    expect(matchRoute('GET', '/v1/shipper/shipment/sh_1/bol/x')).toEqual({ kind: 'not-found' });
    expect(matchRoute('GET', '/')).toEqual({ kind: 'not-found' });
    expect(matchRoute('PUT', '/v1/shipper/shipment')).toEqual({ kind: 'method-not-allowed', allow: ['POST', 'GET', 'HEAD'] });
    expect(matchRoute('POST', '/api-docs/shipper-v1')).toEqual({ kind: 'method-not-allowed', allow: ['GET', 'HEAD'] });
  });

  it('never passes an id outside the store alphabet', () => {
    for (const id of ['..', '%2e%2e', 'a%2Fb', 'qt_1.json', 'x'.repeat(129), 'qt_1%00']) {
      expect(matchRoute('GET', `/v1/shipper/quote/${id}`)).toEqual({ kind: 'bad-id', resource: 'quote', id });
    }
    // Checked only after the method: a wrong method on a bad id is still a 405.
    expect(matchRoute('DELETE', '/v1/shipper/quote/..')).toMatchObject({ kind: 'method-not-allowed' });
  });
});

describe('requestUrl', () => {
  // The URL parser's reading; a target it refuses is read as "/" (a 404).
  const parsed = (target: string) => {
    let url: URL;
    try {
      url = new URL(target, 'http://service.invalid');
    } catch {
      url = new URL('http://service.invalid/');
    }
    return { pathname: url.pathname, search: url.search, params: [...url.searchParams] };
  };
  const read = (target: string) => {
    const url = requestUrl(target);
    return { pathname: url.pathname, search: url.search, params: [...url.searchParams] };
  };

  it('reads a target as the URL parser does, plain paths (read without it) and paths it rewrites alike', () => {
    const targets = [
      '/v1/shipper/quote/qt_01JD3Y7T9Q2W5E8R1T4Y7U0I3Z',
      '/v1/shipper/shipment',
      '/a.b/c~d/e-f_g',
      '/...',
      '/a./.b',
      '/',
      '/a/./b',
      '/a/../b',
      '/a/..',
      '/.',
      '//evil.example/x',
      '/a//b',
      '/a/',
      '/%2e%2e/x',
      '/a b',
      '/ä',
      '/a\\b',
      '/v1/shipper/quote?limit=1&token=x',
      '/x#y',
      'http://other.example/v1/shipper/quote',
      '*',
    ];
    for (const target of targets) expect(read(target), target).toEqual(parsed(target));
  });

  it('agrees with the URL parser on random targets made of path characters and the ones it treats apart', () => {
    const piece = fc.constantFrom('/', '.', '..', 'a', 'Z', '0', '_', '-', '~', '%2e', '%', ' ', '?', '#', '&', '=', '\\', 'é', ':', '@');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const target = `/${pieces.join('')}`;
        expect(read(target)).toEqual(parsed(target));
      }),
      { numRuns: 2000 },
    );
  });
});
