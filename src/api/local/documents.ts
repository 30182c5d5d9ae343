/** Documents of the local engine: BOL PDFs, rendered by src/bol (pdf-lib and fonts, loaded on first use). */
import { join } from 'node:path';
import type { Shipment } from '../../domain/schemas.js';
import { templatesDir } from '../../paths.js';
import { constraintViolation } from '../problems.js';
import type { BolTemplateInfo } from '../types.js';

interface BolRenderer {
  render(shipment: Shipment, template: string): Promise<Uint8Array>;
}

export class Documents {
  private bolRenderer: Promise<BolRenderer> | undefined;
  private readonly bolTemplatesDir = join(templatesDir(), 'bol');

  async listBolTemplates(): Promise<BolTemplateInfo[]> {
    // Listing reads the template files only: no need to load pdf-lib.
    const { listBolTemplates } = await import('../../bol/template.js');
    return listBolTemplates(this.bolTemplatesDir);
  }

  async renderBol(shipment: Shipment, template = 'standard'): Promise<Uint8Array> {
    // An unknown template is the caller's mistake (400, the same in both modes), not a failure.
    const templates = await this.listBolTemplates();
    if (!templates.some((known) => known.name === template)) {
      const names = templates.map((known) => known.name).join(', ');
      throw constraintViolation([{ field: 'template', message: `unknown BOL template "${template}"; known templates: ${names}` }]);
    }
    this.bolRenderer ??= import('../../bol/index.js').then(({ createBolRenderer }) => createBolRenderer({ templatesDir: this.bolTemplatesDir }));
    return (await this.bolRenderer).render(shipment, template);
  }
}
