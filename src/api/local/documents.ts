/**
 * Documents of the local engine: BOL PDFs (src/bol), pallet labels (src/labels) and the files for
 * the carrier's systems (src/edi). The renderers load pdf-lib, fonts and barcodes: on first use.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { BolRenderPool } from '../../bol/renderPool.js';
import type { Warning } from '../../domain/warnings.js';
import type { CarrierProfiles } from '../../domain/carrierProfile.js';
import type { Shipment, TenderDocument, Violation } from '../../domain/schemas.js';
import { formatFieldPath } from '../../domain/validation.js';
import { packageRoot, templatesDir } from '../../paths.js';
import { conflict, constraintViolation, ProblemError } from '../problems.js';
import type { BolTemplateInfo } from '../types.js';
import type { ZipLookup } from '../../domain/zipCode.js';

interface BolRenderer {
  render(shipment: Shipment, template: string): Promise<Uint8Array>;
}

export interface CarrierFileSettings {
  carriers: CarrierProfiles;
  x12: Record<string, unknown>;
  ebol: Record<string, unknown>;
  /** The engine answers over HTTP (shipper serve): its settings are the server's, set where it runs. */
  served?: boolean;
}

export class Documents {
  private bolRenderer: Promise<BolRenderer> | undefined;
  private pool: Promise<BolRenderPool | null> | undefined;
  /** BOLs being rendered now. */
  private rendering = 0;
  private templateNames: Promise<Set<string>> | undefined;
  private readonly bolTemplatesDir = join(templatesDir(), 'bol');

  constructor(
    private readonly settings: CarrierFileSettings = { carriers: {}, x12: {}, ebol: {} },
    private readonly zips?: ZipLookup,
  ) {}

  async listBolTemplates(): Promise<BolTemplateInfo[]> {
    // Listing reads the template files only: no need to load pdf-lib.
    const { listBolTemplates } = await import('../../bol/template.js');
    return listBolTemplates(this.bolTemplatesDir);
  }

  private bolTemplateNames(): Promise<Set<string>> {
    const names = (this.templateNames ??= this.listBolTemplates().then((templates) => new Set(templates.map((known) => known.name))));
    // A folder that could not be read is read again next time.
    names.catch(() => (this.templateNames = undefined));
    return names;
  }

  async renderBol(shipment: Shipment, template = 'standard'): Promise<Uint8Array> {
    // An unknown template is the caller's mistake (400, the same in both modes), not a failure.
    // The names are read once, and again only for a name not among them (a template added since).
    let names = await this.bolTemplateNames();
    if (!names.has(template)) {
      this.templateNames = undefined;
      names = await this.bolTemplateNames();
    }
    if (!names.has(template)) {
      throw constraintViolation([{ field: 'template', reason: `unknown BOL template "${template}"; known templates: ${[...names].join(', ')}` }]);
    }
    // While another BOL renders (bol --all, a busy server), this one goes to a worker thread; so
    // do all BOLs once the workers run. A BOL asked for alone waits a turn of the event loop for
    // others asked for with it (bol --all asks for several at once): then all go to the workers,
    // and this thread never loads pdf-lib for them.
    this.rendering++;
    try {
      if (this.rendering === 1 && !this.pool) await new Promise((resolve) => setImmediate(resolve));
      if (this.rendering > 1 || (this.pool && (await this.pool)?.working)) {
        const pdf = await (await this.renderPool())?.render(shipment, template, this.zips?.lookup(shipment.pickupAddress.zipCode)?.timeZone ?? null);
        if (pdf) return pdf;
      }
      this.bolRenderer ??= import('../../bol/index.js').then(({ createBolRenderer }) =>
        createBolRenderer({ templatesDir: this.bolTemplatesDir, timeZoneOf: (zip) => this.zips?.lookup(zip)?.timeZone }),
      );
      return await (await this.bolRenderer).render(shipment, template);
    } finally {
      this.rendering--;
    }
  }

  /** The worker threads that render BOLs side by side (bol/renderPool.ts); none where the built worker is missing. */
  private renderPool(): Promise<BolRenderPool | null> {
    this.pool ??= (async () => {
      const script = join(packageRoot(), 'dist', 'bol', 'renderWorker.js');
      if (!existsSync(script)) return null;
      const { BolRenderPool } = await import('../../bol/renderPool.js');
      return new BolRenderPool(script, this.bolTemplatesDir, availableParallelism());
    })();
    return this.pool;
  }

  /** Stops the render workers (serve, at shutdown). */
  async close(): Promise<void> {
    await (await this.pool)?.close();
  }

  /** One label per handling unit with the shipment's SSCCs; a cancelled shipment has none (409). */
  async renderLabels(shipment: Shipment, format: 'pdf' | 'zpl', companyPrefix: string): Promise<Uint8Array> {
    if (shipment.orderStatus === 'CANCELLED') throw conflict(`${shipment.orderNumber} is cancelled: its pallets get no labels`);
    const { renderLabels, LabelError } = await import('../../labels/index.js');
    try {
      return await renderLabels(shipment, shipment.ssccs, format, { companyPrefix });
    } catch (error) {
      if (error instanceof LabelError) throw ProblemError.of(error);
      throw error;
    }
  }

  /**
   * The tender file. X12 settings: those of the settings (sender ids, separators), the carrier's
   * profile (receiver ids), else the carrier's SCAC under qualifier 02. What is missing is the
   * operator's to set (409); what the shipment lacks for the format is named field by field (409).
   */
  async tender(shipment: Shipment, format: TenderDocument['format'], control: () => Promise<number>, now: Date): Promise<{ document: TenderDocument; warnings: Warning[] }> {
    const [{ tenderFile }, { x12InterchangeSettingsSchema, ebolSettingsSchema }] = await Promise.all([import('../../edi/tender.js'), import('../../edi/settings.js')]);
    if (format === 'ebol') {
      const settings = ebolSettingsSchema.safeParse(this.settings.ebol);
      if (!settings.success) throw settingsProblem('ebol', settings.error.issues, this.settings.served);
      return this.answer(tenderFile({ format, shipment, settings: settings.data }), null);
    }
    const scac = shipment.carrier?.scac;
    if (!scac)
      throw conflict(`an X12 ${format.slice(4)} goes to a carrier: ${shipment.orderNumber} has none yet (shipper shipment update ${shipment.id} --carrier NAME --scac SCAC)`, [
        { field: 'carrier', reason: 'is required for X12' },
      ]);
    const settings = x12InterchangeSettingsSchema.safeParse({ receiverQualifier: '02', receiverId: scac, ...this.settings.x12, ...this.settings.carriers[scac]?.x12 });
    if (!settings.success) throw settingsProblem('x12', settings.error.issues, this.settings.served);
    const controlNumber = await control();
    return this.answer(
      tenderFile({ format, shipment, settings: settings.data, control: { interchangeControlNumber: controlNumber, groupControlNumber: controlNumber }, createdAt: now }),
      controlNumber,
    );
  }

  private answer(
    result:
      | { ok: true; document: { format: TenderDocument['format']; contentType: string; fileName: string; body: string }; warnings: Warning[] }
      | { ok: false; violations: Violation[] },
    controlNumber: number | null,
  ): { document: TenderDocument; warnings: Warning[] } {
    if (!result.ok) throw conflict('the shipment lacks what the file needs', result.violations);
    const { body, ...rest } = result.document;
    return { document: { ...rest, content: body, controlNumber }, warnings: result.warnings };
  }
}

/**
 * Settings the operator must complete: named by key, with how to set them. A server's settings are
 * its own: a client's `config set` changes nothing, so its answer names the server's operator.
 */
function settingsProblem(key: 'x12' | 'ebol', issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>, served = false) {
  const violations = issues.map((issue) => ({ field: `${key}.${formatFieldPath(issue.path)}`, reason: issue.message }));
  const name = key === 'x12' ? 'X12' : 'eBOL';
  const command = `shipper config set ${key} '{"senderId": "..."}'`;
  return conflict(
    served
      ? `the server's ${name} settings are incomplete; the server's operator sets them where shipper serve runs (${command} there, then a restart of shipper serve)`
      : `the ${name} settings are incomplete; set them: ${command} (see shipper config --help)`,
    violations,
  );
}
