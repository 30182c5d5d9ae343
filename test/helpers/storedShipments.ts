/**
 * The file store's shipments as its files hold them, for tests that look under the store or damage
 * it on purpose: a line `{"i":id,"s":record}` per version in `shipments/<second>-<c>.log` (the last
 * line of an id wins), or a file `shipments/<id>.json` in a store written before the buckets.
 * Read with JSON.parse, not with the store's own reader.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const BUCKET = /^[0-9A-Z]{8}-[0-9A-Z]\.log$/;

/** The bucket a shipment id's lines are in (relative to the store). */
export function shipmentBucketOf(id: string): string {
  return join('shipments', `${id.slice(3, 11)}-${id.slice(-1)}.log`);
}

/** Every shipment id the store's files hold (buckets and files), sorted. */
export async function storedShipmentIds(store: string): Promise<string[]> {
  const names = await readdir(join(store, 'shipments')).catch(() => [] as string[]);
  const ids = new Set(names.filter((name) => name.startsWith('sh_') && name.endsWith('.json')).map((name) => name.slice(0, -'.json'.length)));
  for (const name of names.filter((entry) => BUCKET.test(entry))) {
    for (const line of (await readFile(join(store, 'shipments', name), 'utf8')).split('\n')) {
      if (line) ids.add((JSON.parse(line) as { i: string }).i);
    }
  }
  return [...ids].sort();
}

/** A shipment's record as its bucket's last line of it (or its file) holds it. */
export async function storedShipment(store: string, id: string): Promise<Record<string, unknown>> {
  const text = await readFile(join(store, shipmentBucketOf(id)), 'utf8').catch(() => undefined);
  const lines = (text ?? '').split('\n').filter((line) => line.startsWith(`{"i":${JSON.stringify(id)},`));
  if (lines.length > 0) return (JSON.parse(lines.at(-1)!) as { s: Record<string, unknown> }).s;
  return JSON.parse(await readFile(join(store, 'shipments', `${id}.json`), 'utf8')) as Record<string, unknown>;
}

/**
 * Replaces what a shipment's last line holds after its id with `text` (e.g. JSON cut short, or a
 * record missing a field), as a disk or an editor might: the line still names the shipment.
 */
export async function damageStoredShipment(store: string, id: string, text: string): Promise<string> {
  const file = join(store, shipmentBucketOf(id));
  const lines = (await readFile(file, 'utf8')).split('\n');
  const start = `{"i":${JSON.stringify(id)},`;
  const last = lines.findLastIndex((line) => line.startsWith(start));
  if (last < 0) throw new Error(`no line of ${id} in ${file}`);
  lines[last] = `${start}"s":${text}`;
  await writeFile(file, lines.join('\n'));
  return file;
}

/** Takes a shipment's lines out of its bucket, as a crash before they were written would; resolves with what puts them back. */
export async function removeStoredShipment(store: string, id: string): Promise<() => Promise<void>> {
  const file = join(store, shipmentBucketOf(id));
  const text = await readFile(file, 'utf8');
  const start = `{"i":${JSON.stringify(id)},`;
  await writeFile(
    file,
    text
      .split('\n')
      .filter((line) => !line.startsWith(start))
      .join('\n'),
  );
  return () => writeFile(file, text);
}

/** The shipments the store's files hold, counted without parsing them (a poll while an import runs): the ids of the buckets' lines and of the files. */
export async function storedShipmentCount(store: string): Promise<number> {
  const names = await readdir(join(store, 'shipments')).catch(() => [] as string[]);
  const ids = new Set(names.filter((name) => name.startsWith('sh_') && name.endsWith('.json')).map((name) => name.slice(0, -'.json'.length)));
  for (const name of names.filter((entry) => BUCKET.test(entry))) {
    const text = await readFile(join(store, 'shipments', name), 'utf8').catch(() => '');
    for (const match of text.matchAll(/^\{"i":"(sh_[0-9A-Z]{26})",.*\n/gm)) ids.add(match[1]!);
  }
  return ids.size;
}
