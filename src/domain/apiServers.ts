/**
 * The public servers of the Oway Shipper API as published (reference/oway-shipper-api.openapi.json):
 * the defaults of remote mode's profiles and the `servers` of the OpenAPI document, one list for both.
 */
export const DEFAULT_PROFILES = {
  production: { baseUrl: 'https://api.oway.io' },
  sandbox: { baseUrl: 'https://api.sandbox.oway.io' },
} as const;

/** What a remote server offers: the published operations alone (Oway's service), or those and shipper serve's extensions. */
export const SERVICE_KINDS = ['published', 'serve'] as const;
export type ServiceKind = (typeof SERVICE_KINDS)[number];

/** Oway's own hosts serve the published operations alone; any other server is taken for a shipper serve. */
export function defaultServiceKind(baseUrl: string | undefined): ServiceKind {
  if (baseUrl === undefined) return 'published';
  const host = new URL(baseUrl).hostname.toLowerCase();
  return host === 'oway.io' || host.endsWith('.oway.io') ? 'published' : 'serve';
}
