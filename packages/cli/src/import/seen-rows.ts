/**
 * Which row first named each resource, for `duplicate_row`. A million-row file must not need a
 * million strings in memory: each identity is kept as a 64-bit digest in typed arrays (24 to 48
 * bytes a row). Two different identities share a digest with odds near n²/2⁶⁵ — about one
 * in thirty million for a million rows — and would then be reported as duplicates.
 */
import { createHash } from 'node:crypto';

export class SeenRows {
  private capacity = 1024;
  private high = new Uint32Array(this.capacity);
  private low = new Uint32Array(this.capacity);
  /** row numbers start at 1, so 0 marks an empty slot */
  private rows = new Uint32Array(this.capacity);
  private size = 0;

  /** The row that first had `identity`, or undefined (and `row` is remembered as its first). */
  firstOrRemember(identity: string, row: number): number | undefined {
    const digest = createHash('md5').update(identity).digest();
    const high = digest.readUInt32LE(0);
    const low = digest.readUInt32LE(4);
    const found = this.find(high, low);
    if (this.rows[found] !== 0) return this.rows[found];
    this.high[found] = high;
    this.low[found] = low;
    this.rows[found] = row;
    if (++this.size * 2 > this.capacity) this.grow();
    return undefined;
  }

  /** The slot holding this digest, or the empty slot where it belongs (linear probing). */
  private find(high: number, low: number): number {
    const mask = this.capacity - 1;
    let slot = low & mask;
    while (this.rows[slot] !== 0 && (this.high[slot] !== high || this.low[slot] !== low)) slot = (slot + 1) & mask;
    return slot;
  }

  private grow(): void {
    const { high, low, rows } = this;
    this.capacity *= 2;
    this.high = new Uint32Array(this.capacity);
    this.low = new Uint32Array(this.capacity);
    this.rows = new Uint32Array(this.capacity);
    for (let i = 0; i < rows.length; i++) {
      if (rows[i] === 0) continue;
      const slot = this.find(high[i]!, low[i]!);
      this.high[slot] = high[i]!;
      this.low[slot] = low[i]!;
      this.rows[slot] = rows[i]!;
    }
  }
}
