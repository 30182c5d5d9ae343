/**
 * A map from 128-bit digests to small unsigned numbers, in typed arrays: what an import holds for
 * every shipment of a file (how often each order occurred, where each group's rows were). A Map of
 * strings costs about 130 bytes an entry; this costs 24 to 48 (open addressing, linear probing,
 * doubled at half full), so the memory of an import stays flat as files grow. Keys are the first
 * 16 bytes of a SHA-256 digest: two different keys share one only with a chance of about n²/2^129.
 */
const KEY_WORDS = 4;

export class DigestTable {
  private keys: Uint32Array;
  private values: Uint32Array;
  private used: Uint8Array;
  private count = 0;

  /** `width`: how many numbers each key holds (all 0 until set). */
  constructor(
    private readonly width = 1,
    capacity = 1024,
  ) {
    this.keys = new Uint32Array(capacity * KEY_WORDS);
    this.values = new Uint32Array(capacity * width);
    this.used = new Uint8Array(capacity);
  }

  get size(): number {
    return this.count;
  }

  /** The numbers of `digest` (at least 16 bytes), or undefined when it was never set. */
  get(digest: Uint8Array): Uint32Array | undefined {
    const slot = this.find(digest);
    return this.used[slot] ? this.values.subarray(slot * this.width, (slot + 1) * this.width) : undefined;
  }

  set(digest: Uint8Array, numbers: readonly number[]): void {
    let slot = this.find(digest);
    if (!this.used[slot]) {
      if ((this.count + 1) * 2 > this.used.length) {
        this.grow();
        slot = this.find(digest);
      }
      this.used[slot] = 1;
      this.count++;
      const view = new DataView(digest.buffer, digest.byteOffset, 16);
      for (let word = 0; word < KEY_WORDS; word++) this.keys[slot * KEY_WORDS + word] = view.getUint32(word * 4);
    }
    for (let index = 0; index < this.width; index++) this.values[slot * this.width + index] = numbers[index] ?? 0;
  }

  clear(): void {
    this.used.fill(0);
    this.count = 0;
  }

  /** The slot of `digest`: its own, or the empty one where it would go. */
  private find(digest: Uint8Array): number {
    const view = new DataView(digest.buffer, digest.byteOffset, 16);
    const words = [view.getUint32(0), view.getUint32(4), view.getUint32(8), view.getUint32(12)];
    const mask = this.used.length - 1;
    // The digest is uniform already: its first word is the hash.
    for (let slot = words[0]! & mask; ; slot = (slot + 1) & mask) {
      if (!this.used[slot]) return slot;
      const at = slot * KEY_WORDS;
      if (this.keys[at] === words[0] && this.keys[at + 1] === words[1] && this.keys[at + 2] === words[2] && this.keys[at + 3] === words[3]) return slot;
    }
  }

  private grow(): void {
    const { keys, values, used, width } = this;
    const capacity = used.length * 2;
    this.keys = new Uint32Array(capacity * KEY_WORDS);
    this.values = new Uint32Array(capacity * width);
    this.used = new Uint8Array(capacity);
    this.count = 0;
    const digest = new Uint8Array(16);
    const view = new DataView(digest.buffer);
    for (let slot = 0; slot < used.length; slot++) {
      if (!used[slot]) continue;
      for (let word = 0; word < KEY_WORDS; word++) view.setUint32(word * 4, keys[slot * KEY_WORDS + word]!);
      this.set(digest, Array.from(values.subarray(slot * width, (slot + 1) * width)));
    }
  }
}
