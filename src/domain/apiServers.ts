/**
 * The public servers of the Shipper Freight API: the defaults of remote mode's profiles and the
 * `servers` of the OpenAPI document, one list for both. Placeholders under the reserved
 * `.example` domain until the real hosts are known.
 */
export const DEFAULT_PROFILES = {
  production: { baseUrl: 'https://api.shipper.example' },
  sandbox: { baseUrl: 'https://sandbox.api.shipper.example' },
} as const;
