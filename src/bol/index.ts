// Placeholder until the BOL renderer lands (branch `bol`).
import type { Shipment } from '../domain/schemas.js';
import type { BolTemplateInfo } from '../api/types.js';
export function createBolRenderer(_options: { templatesDir: string }): {
  render(shipment: Shipment, template: string): Promise<Uint8Array>;
  templates(): Promise<BolTemplateInfo[]>;
} {
  throw new Error('BOL rendering is not built yet');
}
