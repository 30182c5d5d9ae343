/**
 * The served document is a superset of the published one (issue 40, item 6): api-smart-diff, a
 * differ we did not write, compares the published document with `/api-docs/shipper-v1` on the
 * paths shipper serves (`/v1/shipper/**`, `/v1/auth/token`). Every breaking change it reports must
 * be one the allowlist below names, every entry must still match something (a fixed difference
 * leaves the list), and every entry names a row of docs/published-wire.md, where the difference is
 * written down for people.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, tempDir } from '../helpers/cli.js';
import { breakingChanges, type BreakingChange } from '../helpers/publishedDiff.js';
import { PUBLISHED_DOCUMENT_PATH } from '../helpers/publishedMock.js';
import { startServe, type ServeProcess } from '../helpers/serve.js';

interface Allowed {
  /** The subject of the row of docs/published-wire.md that explains the difference. */
  row: string;
  path: RegExp;
  description: RegExp;
}

const ANY_PATH = /./;
const SHIPMENT_ANSWERS = /^\/v1\/shipper\/shipment(\/\{orderNumber\}(\/(confirm|cancel))?)?$/;

const ALLOWED: Allowed[] = [
  // Problem details are served as application/problem+json; api-smart-diff words the missing application/json of the error answers as a "Request Body" annotation.
  { row: 'Error body', path: ANY_PATH, description: /^\[Removed\] annotation \(application\/json\) from Request Body content/ },
  // OpenAPI 3.1 against 3.0.1: null is a type (anyOf with null, no `nullable`), integers carry no int32 format.
  { row: 'Machine-readable description', path: ANY_PATH, description: /^\[Removed\] (value format from|annotation \(format\)|annotation \(nullable\)|possbile nullable value)/ },
  { row: 'Machine-readable description', path: /^\/v1\/shipper\/quote/, description: /^\[Added\] (anyOf schema to `estimatedDeliveryDate`|annotation \(1\) in Response 200)/ },
  // The eight published fields, and shipper's record beside them, each always present (required in the answer), companyId `default` until issue 41.
  {
    row: 'Shipment answer',
    path: SHIPMENT_ANSWERS,
    description: /^\[Added\] (required status to `\w+`|annotation \(\d+\)|annotation \(default\)|default value to `companyId`) in Response 200/,
  },
  // A quote names its company too (issue 41), always present; api-smart-diff reads a field added to an answer as required as breaking.
  { row: 'Quote answer', path: /^\/v1\/shipper\/quote(\/\{quoteId\})?$/, description: /^\[Added\] (required status to `companyId`|annotation \(\d+\)) in Response 200/ },
  {
    row: 'Number types',
    path: /^\/v1\/shipper\/(quote|shipment)$/,
    description: /^\[Replaced\] type definition of `orderComponents\[\]\.(poundsWeight|dimensions\.(length|width|height))`/,
  },
  {
    row: 'Dimensions given in part',
    path: /^\/v1\/shipper\/(quote|shipment)$/,
    description: /^\[Added\] required status to `orderComponents\[\]\.dimensions\.\w+`/,
  },
  // Lengths, counts and ranges the published schemas leave open.
  {
    row: 'Bounds on requests',
    path: /^\/v1\/(shipper\/(quote|shipment)|auth\/token)$/,
    description: /^\[(Added|Replaced)\] (maxLength|minLength|maxItems|minItems|maximum|minimum|) ?(validator )?(to|of) `/,
  },
  { row: 'Address', path: /^\/v1\/shipper\/(quote|shipment)$/, description: /^\[Replaced\] pattern validator of `(pickup|delivery)Address\.(state|zipCode|openTime|closeTime)`/ },
  { row: 'Create shipment request', path: /^\/v1\/shipper\/shipment$/, description: /^\[Added\] pattern validator to `requiredDeliveryBy`/ },
  { row: 'Identifiers', path: ANY_PATH, description: /^\[Added\] pattern validator in (path|\{\{in\}\}) parameter `(quoteId|orderNumber|stop|documentType|\{\{name\}\})`/ },
  { row: 'Idempotency', path: /^\/v1\/shipper\/shipment$/, description: /^\[Added\] pattern validator in header parameter `Idempotency-Key`/ },
  // The document says every operation may need a token; shipper serve without credentials is an open sandbox.
  { row: 'Authentication', path: /^$/, description: /^add security$/ },
  // The document types and stops shipper also accepts (BOL, LABEL; a stop in either case), and ids of the store's alphabet.
  { row: 'Documents', path: /\/document\/\{documentType\}$/, description: /^\[Replaced\] possible values in path parameter `(documentType|stop)`/ },
  { row: 'Appointments', path: /\/appointment\/\{stop\}(\/pdf)?$/, description: /^\[Replaced\] possible values in path parameter `stop`/ },
  // The published contact's minLength 0 says nothing; shipper leaves it out.
  { row: 'Appointments', path: /\/appointment\/\{stop\}$/, description: /^\[Removed\] (minLength validator from `contacts\[\]\.\w+`|annotation \(minLength\)) in Response 200/ },
  // The parties as the order has them (a contact and a phone absent on orders booked before they were asked for), and shipper's invoice fields beside the published ones.
  {
    row: 'Invoice',
    path: /\/invoice$/,
    description:
      /^\[(Removed\] (required status from `(shipper|consignee|billTo)\.(contactPerson|phoneNumber)`|pattern validator from `(shipper|consignee|billTo)\.\w+`)|Added\] schema for additional properties to `(lineItems\[\])?\{\.\*\}`) in Response 200/,
  },
  // The upload is a file: a request without one is refused (the published body is not marked required).
  { row: 'Appointment documents', path: /\/appointment\/\{stop\}\/document\/\{documentType\}$/, description: /^\[Added\] required status to Request Body$/ },
  // Its 404 is a ProblemDetail (JSON), not the application/pdf the published answer also lists.
  { row: 'Appointment PDF', path: /\/appointment\/\{stop\}\/pdf$/, description: /^\[Removed\] annotation \(application\/pdf\) from Request Body content/ },
  // The published DELETE declares its 404 and 409 as */* with a loose body; shipper answers its ProblemDetail there.
  {
    row: 'Error body',
    path: /\/appointment\/\{stop\}\/document\/\{documentType\}$/,
    description: /^\[Added\] (required status to `[\w.[\]]+`|annotation \(\d+\)) in Response 40[49] content/,
  },
];

const allows = (rule: Allowed, change: BreakingChange) => rule.path.test(change.path) && rule.description.test(change.description);

let serve: ServeProcess;
let store: { dir: string; cleanup: () => Promise<void> };
let changes: BreakingChange[];

beforeAll(async () => {
  store = await tempDir();
  serve = await startServe({ store: store.dir });
  const served = (await (await fetch(`${serve.url}/api-docs/shipper-v1`)).json()) as object;
  const published = JSON.parse(readFileSync(PUBLISHED_DOCUMENT_PATH, 'utf8')) as object;
  changes = breakingChanges(published, served);
});
afterAll(async () => {
  await serve.stop();
  await store.cleanup();
});

describe('the served document against the published one (api-smart-diff)', () => {
  it('reports no breaking change beyond the allowed ones', () => {
    expect(changes.length).toBeGreaterThan(0);
    expect(changes.filter((change) => !ALLOWED.some((rule) => allows(rule, change)))).toEqual([]);
  });

  it('has no allowlist entry that no longer matches a difference', () => {
    expect(ALLOWED.filter((rule) => !changes.some((change) => allows(rule, change))).map((rule) => `${rule.row}: ${String(rule.description)}`)).toEqual([]);
  });

  it('explains every allowed difference in a row of docs/published-wire.md', () => {
    const page = readFileSync(join(ROOT, 'docs', 'published-wire.md'), 'utf8');
    const subjects = new Set([...page.matchAll(/^\| ([^|]+?) \|/gm)].map((match) => match[1]!));
    expect(ALLOWED.map((rule) => rule.row).filter((row) => !subjects.has(row))).toEqual([]);
  });

  it('breaks nothing of POST /v1/auth/token but the bounds of its fields and the int32 format', () => {
    const token = changes.filter((change) => change.path === '/v1/auth/token');
    expect(token.map((change) => change.description).sort()).toEqual([
      '[Added] maxLength validator to `clientId` in Request Body content (application/json)',
      '[Added] maxLength validator to `clientSecret` in Request Body content (application/json)',
      '[Added] minLength validator to `clientId` in Request Body content (application/json)',
      '[Added] minLength validator to `clientSecret` in Request Body content (application/json)',
      '[Removed] value format from `expiresIn` in Response 200 content (application/json)',
    ]);
  });
});
