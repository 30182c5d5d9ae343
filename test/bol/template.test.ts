import { mkdtemp, mkdir, readFile, rm, writeFile, copyFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BolTemplateError, DEFAULT_LEGAL_TEXT, findBolTemplatesDir, listBolTemplates, loadBolTemplate } from '../../src/bol/template.js';

const shipped = findBolTemplatesDir();
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bol-templates-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const write = (name: string, content: unknown) => writeFile(join(dir, `${name}.json`), typeof content === 'string' ? content : JSON.stringify(content));

describe('shipped templates', () => {
  it('are found from the source tree and listed with their descriptions', async () => {
    expect(shipped).toMatch(/templates[\\/]bol$/);
    const list = await listBolTemplates(shipped);
    expect(list.map((template) => template.name)).toEqual(['acme-logistics', 'standard']);
    for (const template of list) expect(template.description).not.toMatch(/^\(broken/);
  });

  it('standard prints the order number alone, has no logo and uses the default legal texts', async () => {
    const standard = await loadBolTemplate('standard', shipped);
    expect(standard.spec.referenceFormat).toBe('order-number');
    expect(standard.logo).toBeNull();
    expect(standard.spec.legalText.liabilityNotice).toBe(DEFAULT_LEGAL_TEXT.liabilityNotice);
  });

  it('acme-logistics is partner-branded: reference with order number, a PNG logo under 20 KB, colours', async () => {
    const acme = await loadBolTemplate('acme-logistics', shipped);
    expect(acme.spec.referenceFormat).toBe('ref-with-order-number');
    expect(acme.logo?.format).toBe('png');
    expect(acme.logo!.bytes.byteLength).toBeLessThan(20 * 1024);
    expect(acme.spec.colors.accent).not.toBe('#000000');
    expect(acme.spec.carrier.scac).toMatch(/^[A-Z]{2,4}$/);
  });
});

describe('loadBolTemplate errors', () => {
  it('an unknown name lists the known templates', async () => {
    await write('alpha', { description: 'a' });
    await write('beta', { description: 'b' });
    await expect(loadBolTemplate('gamma', dir)).rejects.toThrow('unknown BOL template "gamma"; known templates: alpha, beta');
  });

  it('refuses names that could leave the folder', async () => {
    for (const name of ['../standard', 'Standard', 'a/b', '-x', '', 'a.json']) {
      await expect(loadBolTemplate(name, shipped)).rejects.toThrow(/invalid BOL template name/);
    }
  });

  it('names the file for invalid JSON', async () => {
    await write('broken', '{ "description": ');
    const error = await loadBolTemplate('broken', dir).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BolTemplateError);
    expect((error as Error).message).toContain(join(dir, 'broken.json'));
    expect((error as Error).message).toContain('not valid JSON');
  });

  it('names the file and every bad field, including unknown keys', async () => {
    await write('bad', { description: 'x', colors: { accent: 'blue' }, colours: {}, freightChargeTerms: 'cash' });
    const message = await loadBolTemplate('bad', dir).then(
      () => '',
      (error: Error) => error.message,
    );
    expect(message).toContain(join(dir, 'bad.json'));
    expect(message).toContain('colors.accent: must be a colour written #RRGGBB');
    expect(message).toContain('colours');
    expect(message).toContain('freightChargeTerms');
  });

  it('refuses a logo path outside the templates folder, and names a missing or non-image logo', async () => {
    await write('escape', { description: 'x', logo: { path: '../secret.png' } });
    await expect(loadBolTemplate('escape', dir)).rejects.toThrow(/logo\.path: must be a path inside the templates folder/);
    await write('missing', { description: 'x', logo: { path: 'assets/none.png' } });
    await expect(loadBolTemplate('missing', dir)).rejects.toThrow(/cannot read its logo .*none\.png/);
    await mkdir(join(dir, 'assets'));
    await writeFile(join(dir, 'assets', 'fake.png'), 'not an image');
    await write('fake', { description: 'x', logo: { path: 'assets/fake.png' } });
    await expect(loadBolTemplate('fake', dir)).rejects.toThrow(/neither a PNG nor a JPEG/);
  });

  it('loads a logo relative to the template file', async () => {
    await mkdir(join(dir, 'assets'));
    await copyFile(join(shipped, 'assets', 'acme-logistics.png'), join(dir, 'assets', 'logo.png'));
    await write('custom', { description: 'x', logo: { path: 'assets/logo.png', width: 90 } });
    const template = await loadBolTemplate('custom', dir);
    expect(template.logo).toMatchObject({ format: 'png', width: 90, height: 36 });
    expect(template.logo!.bytes).toEqual(new Uint8Array(await readFile(join(dir, 'assets', 'logo.png'))));
  });
});

describe('listBolTemplates', () => {
  it('lists a broken template with the reason instead of failing the whole list', async () => {
    await write('good', { description: 'fine' });
    await write('bad', '{');
    await writeFile(join(dir, 'README.txt'), 'not a template');
    await write('Not-A-Name', { description: 'skipped' });
    const list = await listBolTemplates(dir);
    expect(list.map((template) => template.name)).toEqual(['bad', 'good']);
    expect(list[0]!.description).toMatch(/^\(broken: .*not valid JSON/);
    expect(list[1]!.description).toBe('fine');
  });

  it('returns nothing for a missing folder', async () => {
    expect(await listBolTemplates(join(dir, 'nope'))).toEqual([]);
  });
});
