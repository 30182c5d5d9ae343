/**
 * BOL templates are data, not code: `templates/bol/<name>.json` (plus assets such as a logo) picks
 * colours, the logo, how the reference prints, carrier defaults and the legal texts. This module
 * holds their schema and the loader; everything it reads is validated here so that layout and
 * rendering never see a half-valid template.
 */
import { readFile, readdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { dirname, isAbsolute, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { ShipperError, type ErrorCode } from '../domain/errors.js';

/** Lower-case letters, digits and dashes: a name can never climb out of the templates folder. */
export const BOL_TEMPLATE_NAME = /^[a-z0-9][a-z0-9-]*$/;

const hexColour = z.string().regex(/^#[0-9a-fA-F]{6}$/, { message: 'must be a colour written #RRGGBB' });

/** The VICS legal texts. Defaults are the wording carriers expect; a template may replace them. */
export const DEFAULT_LEGAL_TEXT = {
  liabilityNotice: 'NOTE: Liability limitation for loss or damage in this shipment may be applicable. See 49 U.S.C. § 14706(c)(1)(A) and (B).',
  declaredValue:
    'Where the rate is dependent on value, shippers are required to state specifically in writing the agreed or declared value of the property as follows: "The agreed or declared value of the property is specifically stated by the shipper to be not exceeding __________ per __________."',
  received:
    'RECEIVED, subject to individually determined rates or contracts that have been agreed upon in writing between the carrier and shipper, if applicable, otherwise to the rates, classifications and rules that have been established by the carrier and are available to the shipper, on request, and to all applicable state and federal regulations.',
  deliveryWithoutPayment: 'The carrier shall not make delivery of this shipment without payment of freight and all other lawful charges.',
  shipperCertification:
    'This is to certify that the above named materials are properly classified, packaged, marked and labeled, and are in proper condition for transportation according to the applicable regulations of the DOT.',
  carrierCertification:
    'Carrier acknowledges receipt of packages and required placards. Carrier certifies emergency response information was made available and/or carrier has the DOT emergency response guidebook or equivalent documentation in the vehicle. Property described above is received in good order, except as noted.',
} as const;

const legalTextSchema = z
  .strictObject({
    liabilityNotice: z.string().min(1).max(400).default(DEFAULT_LEGAL_TEXT.liabilityNotice),
    declaredValue: z.string().min(1).max(600).default(DEFAULT_LEGAL_TEXT.declaredValue),
    received: z.string().min(1).max(800).default(DEFAULT_LEGAL_TEXT.received),
    deliveryWithoutPayment: z.string().min(1).max(400).default(DEFAULT_LEGAL_TEXT.deliveryWithoutPayment),
    shipperCertification: z.string().min(1).max(600).default(DEFAULT_LEGAL_TEXT.shipperCertification),
    carrierCertification: z.string().min(1).max(600).default(DEFAULT_LEGAL_TEXT.carrierCertification),
  })
  .prefault({});

/**
 * Keys that templates had once, refused (unless they say the default) with the reason: who pays the freight is the booking's
 * (`--terms`, `--bill-to`), so that the BOL, the invoice and the carrier files agree.
 */
const BOOKING_FIELD = "is the booking's: a template cannot change who pays the freight (book with --terms and --bill-to)";

/**
 * `order-number`: the order number cell shows the internal order number; a refNumber goes to the
 * "additional shipper info" cell. `ref-with-order-number`: the cell shows
 * `<refNumber> (<order number>)` (seed 2.3, partner-branded templates).
 */
export const REFERENCE_FORMATS = ['order-number', 'ref-with-order-number'] as const;

/**
 * A template file. Strict: an unknown key is an error, so a typo ("colours") is reported instead
 * of silently ignored.
 */
export const bolTemplateFileSchema = z.strictObject({
  $schema: z.string().optional(),
  description: z.string().min(1).max(200),
  brandName: z.string().min(1).max(60).nullable().default(null),
  pageSize: z.enum(['letter', 'a4']).default('letter'),
  referenceFormat: z.enum(REFERENCE_FORMATS).default('order-number'),
  colors: z
    .strictObject({
      accent: hexColour.default('#000000'),
      headerFill: hexColour.default('#E6E6E6'),
      headerText: hexColour.default('#000000'),
      text: hexColour.default('#000000'),
      rule: hexColour.default('#000000'),
    })
    .prefault({}),
  logo: z
    .strictObject({
      path: z
        .string()
        .regex(/\.(png|jpe?g)$/i, { message: 'must name a .png or .jpg file' })
        .refine((path) => !isAbsolute(path) && !normalize(path).split(/[\\/]/).includes('..'), {
          message: 'must be a path inside the templates folder (relative, without "..")',
        }),
      width: z.number().positive().max(200).default(120),
      height: z.number().positive().max(60).default(36),
    })
    .nullable()
    .default(null),
  carrier: z
    .strictObject({
      name: z.string().min(1).max(80).nullable().default(null),
      scac: z
        .string()
        .regex(/^[A-Z]{2,4}$/, { message: 'a SCAC is 2 to 4 capital letters' })
        .nullable()
        .default(null),
    })
    .prefault({}),
  // Templates copied from the old standard.json say "prepaid" and null, which change nothing.
  freightChargeTerms: z.literal('prepaid', { error: BOOKING_FIELD }).optional(),
  thirdPartyBillTo: z.null({ error: BOOKING_FIELD }).optional(),
  legalText: legalTextSchema,
});
export type BolTemplateSpec = z.output<typeof bolTemplateFileSchema>;

export interface BolTemplateLogo {
  bytes: Uint8Array;
  format: 'png' | 'jpg';
  /** The box (points) the logo is fitted into, keeping its aspect ratio. */
  width: number;
  height: number;
}

export interface BolTemplate {
  name: string;
  file: string;
  spec: BolTemplateSpec;
  logo: BolTemplateLogo | null;
}

/** A template of this installation cannot be read: the operator's to fix, exit 5 (500 on the server, the detail in its log). */
export class BolTemplateError extends ShipperError {
  readonly code: ErrorCode = 'BAD_TEMPLATE';
  override name = 'BolTemplateError';
}

export function isBolTemplateName(name: string): boolean {
  return BOL_TEMPLATE_NAME.test(name);
}

/** Parses template JSON text; errors name the file and every offending field. */
export function parseBolTemplate(text: string, file: string): BolTemplateSpec {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new BolTemplateError(`BOL template ${file} is not valid JSON: ${(error as Error).message}`);
  }
  const result = bolTemplateFileSchema.safeParse(json);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${issue.path.length ? issue.path.join('.') : '(root)'}: ${issue.message}`);
    throw new BolTemplateError(`BOL template ${file} is invalid: ${problems.join('; ')}`);
  }
  return result.data;
}

export async function loadBolTemplate(name: string, templatesDir: string): Promise<BolTemplate> {
  if (!isBolTemplateName(name)) {
    throw new BolTemplateError(
      `invalid BOL template name "${name}": use lower-case letters, digits and dashes (known: ${(await templateNames(templatesDir)).join(', ') || 'none'})`,
    );
  }
  const file = join(templatesDir, `${name}.json`);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      throw new BolTemplateError(`cannot read BOL template ${file}: ${(error as Error).message}`);
    }
    const known = await templateNames(templatesDir);
    throw new BolTemplateError(`unknown BOL template "${name}"; known templates: ${known.join(', ') || `none in ${templatesDir}`}`);
  }
  const spec = parseBolTemplate(text, file);
  return { name, file, spec, logo: spec.logo ? await loadLogo(spec.logo, file) : null };
}

async function loadLogo(logo: NonNullable<BolTemplateSpec['logo']>, templateFile: string): Promise<BolTemplateLogo> {
  const path = join(dirname(templateFile), logo.path);
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await readFile(path));
  } catch (error) {
    throw new BolTemplateError(`BOL template ${templateFile}: cannot read its logo ${path}: ${(error as Error).message}`);
  }
  const format = sniffImageFormat(bytes);
  if (!format) throw new BolTemplateError(`BOL template ${templateFile}: its logo ${path} is neither a PNG nor a JPEG file`);
  return { bytes, format, width: logo.width, height: logo.height };
}

function sniffImageFormat(bytes: Uint8Array): 'png' | 'jpg' | null {
  if (bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47) return 'png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return 'jpg';
  return null;
}

async function templateNames(templatesDir: string): Promise<string[]> {
  let entries: string[];
  try {
    entries = await readdir(templatesDir);
  } catch {
    return [];
  }
  return entries
    .filter((entry) => entry.endsWith('.json'))
    .map((entry) => entry.slice(0, -'.json'.length))
    .filter(isBolTemplateName)
    .sort();
}

/**
 * The templates of a folder with their descriptions. A broken template is listed with the reason
 * instead of its description, so one bad file does not hide the others.
 */
export async function listBolTemplates(templatesDir: string): Promise<{ name: string; description: string }[]> {
  const names = await templateNames(templatesDir);
  return Promise.all(
    names.map(async (name) => {
      const file = join(templatesDir, `${name}.json`);
      try {
        return { name, description: parseBolTemplate(await readFile(file, 'utf8'), file).description };
      } catch (error) {
        return { name, description: `(broken: ${(error as Error).message})` };
      }
    }),
  );
}

/**
 * The shipped `templates/bol` folder, found by walking up from this module: the same code runs
 * from src/bol (tests) and from a bundled chunk under dist/, at different depths.
 */
export function findBolTemplatesDir(fromUrl: string = import.meta.url): string {
  let dir = dirname(fileURLToPath(fromUrl));
  for (;;) {
    const candidate = join(dir, 'templates', 'bol');
    if (existsSync(join(candidate, 'standard.json'))) return candidate;
    const parent = dirname(dir);
    if (parent === dir || dir.endsWith(`${sep}node_modules`)) {
      throw new BolTemplateError('cannot find the shipped templates/bol folder');
    }
    dir = parent;
  }
}
