/**
 * The pdf-lib adapter of the BOL: executes the page plan of layout.ts into a PDF. A renderer loads
 * templates and logos once and reuses them (the font is loaded once per process by
 * ../print/fonts.ts), so that `shipper bol --all` pays for parsing them a single time.
 */
import { PDFDocument, PDFName, PDFRawStream, PDFRef, type RGB } from 'pdf-lib';
import type { Shipment } from '../domain/schemas.js';
import type { ColorRole } from '../print/drawOps.js';
import { fontMetrics, loadDocumentFonts, REPLACEMENT_CHARACTER, type LoadedFonts } from '../print/fonts.js';
import { createPdfDocument, documentDateOf, drawPage, embedBarcodes, hexToRgb, setDocumentInfo, type PlacedImage } from '../print/pdf.js';
import { layoutBol, type BolPlaces } from './layout.js';
import { listBolTemplates, loadBolTemplate, type BolTemplate, type BolTemplateLogo } from './template.js';

export { fontMetrics, REPLACEMENT_CHARACTER };

export interface BolRenderer {
  /** One PDF for one shipment with the named template. */
  render(shipment: Shipment, templateName: string): Promise<Uint8Array>;
  /** The templates of the renderer's folder, for `shipper bol --templates`. */
  templates(): Promise<{ name: string; description: string }[]>;
}

export interface BolRendererOptions {
  /** The folder holding `<name>.json` templates and their assets (the shipped one: `findBolTemplatesDir()`). */
  templatesDir: string;
  /** The IANA time zone of a ZIP, so that dates print as dates where they happen (UTC dates without it). */
  timeZoneOf?: (zipCode: string) => string | undefined;
}

export function createBolRenderer(options: BolRendererOptions): BolRenderer {
  const templates = new Map<string, Promise<PreparedTemplate>>();
  const loadTemplate = (name: string) => {
    let template = templates.get(name);
    if (!template) {
      template = loadBolTemplate(name, options.templatesDir).then(prepareTemplate);
      // A failed load is not remembered: the user may fix the file and ask again (long-lived serve).
      template.catch(() => templates.delete(name));
      templates.set(name, template);
    }
    return template;
  };

  return {
    async render(shipment, templateName) {
      const [loadedFonts, template] = await Promise.all([loadDocumentFonts(), loadTemplate(templateName)]);
      return renderBol(shipment, template, loadedFonts, { originTimeZone: options.timeZoneOf?.(shipment.pickupAddress.zipCode) ?? null });
    },
    templates: () => listBolTemplates(options.templatesDir),
  };
}

interface PreparedTemplate extends BolTemplate {
  logoImage: PreparedImage | null;
}

async function prepareTemplate(template: BolTemplate): Promise<PreparedTemplate> {
  return { ...template, logoImage: template.logo ? await prepareImage(template.logo) : null };
}

/**
 * An image encoded once into PDF streams (pdf-lib decodes a PNG and deflates it again at every
 * embed, which for a logo cost more than the rest of a BOL). Each document gets copies of the
 * same compressed bytes.
 */
interface PreparedImage {
  width: number;
  height: number;
  image: PDFRawStream;
  softMask: PDFRawStream | null;
}

async function prepareImage(logo: BolTemplateLogo): Promise<PreparedImage> {
  const scratch = await PDFDocument.create();
  const image = logo.format === 'png' ? await scratch.embedPng(logo.bytes) : await scratch.embedJpg(logo.bytes);
  await image.embed();
  const stream = scratch.context.lookup(image.ref);
  if (!(stream instanceof PDFRawStream)) throw new Error('pdf-lib embedded the logo in an unexpected form');
  const softMaskRef = stream.dict.get(PDFName.of('SMask'));
  const softMask = softMaskRef instanceof PDFRef ? scratch.context.lookup(softMaskRef) : null;
  if (softMask !== null && !(softMask instanceof PDFRawStream)) throw new Error('pdf-lib embedded the logo mask in an unexpected form');
  return { width: image.width, height: image.height, image: stream, softMask };
}

/** Registers a prepared image in `doc`; returns its reference. */
function placeImage(doc: PDFDocument, prepared: PreparedImage): PDFRef {
  const context = doc.context;
  const dict = prepared.image.dict.clone(context);
  if (prepared.softMask) {
    dict.set(PDFName.of('SMask'), context.register(PDFRawStream.of(prepared.softMask.dict.clone(context), prepared.softMask.contents)));
  }
  return context.register(PDFRawStream.of(dict, prepared.image.contents));
}

/** The VOID stamp's red: the same on every template, whatever its colours. */
const STAMP_RED = '#D0021B';

async function renderBol(shipment: Shipment, template: PreparedTemplate, fonts: LoadedFonts, places: BolPlaces): Promise<Uint8Array> {
  const plan = layoutBol(shipment, template.spec, fonts.metrics, places);
  const { doc, regular, bold } = await createPdfDocument(fonts, shipment.bolNumber);
  const barcodes = await embedBarcodes(
    doc,
    plan.pages.flatMap((page) => page.ops),
  );
  const logo: PlacedImage | null = template.logoImage ? { ref: placeImage(doc, template.logoImage), width: template.logoImage.width, height: template.logoImage.height } : null;

  const colors = template.spec.colors;
  const palette: Record<ColorRole, RGB> = {
    text: hexToRgb(colors.text),
    accent: hexToRgb(colors.accent),
    headerFill: hexToRgb(colors.headerFill),
    headerText: hexToRgb(colors.headerText),
    rule: hexToRgb(colors.rule),
    stamp: hexToRgb(STAMP_RED),
  };

  for (const pagePlan of plan.pages) {
    const page = doc.addPage([plan.pageWidth, plan.pageHeight]);
    drawPage(page, pagePlan.ops, { regular, bold, barcodes, logo, palette });
  }

  setDocumentInfo(doc, {
    title: `Bill of Lading ${shipment.bolNumber}`,
    subject: `Order ${shipment.orderNumber}`,
    author: shipment.pickupAddress.name,
    date: documentDateOf(shipment),
  });
  // A classic cross-reference table: pdf-lib compresses object streams with its JavaScript deflate,
  // which cost a BOL 2 to 3 ms (a tenth of its rendering) for 3 KB less in a 36 KB file.
  return doc.save({ useObjectStreams: false });
}
