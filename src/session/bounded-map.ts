/**
 * A Map that forgets its oldest entries past a capacity: bookkeeping that must not grow with the length
 * of a session (answered requests, progress tokens, ...). Keys compare like Map keys: `1` ≠ `"1"`.
 *
 * Two generations instead of one Map trimmed from its front: V8 Maps keep deleted slots until they
 * rehash, so repeatedly iterating to the oldest entry gets slower the more was deleted. Here new keys go
 * to `young`; when it holds half the capacity it becomes `old` and the previous `old` is dropped whole.
 * Every operation is O(1); at most `capacity` entries are kept and at least half of them are recent.
 */
export class BoundedMap<K, V> {
  private young = new Map<K, V>();
  private old = new Map<K, V>();
  private readonly half: number;
  /** Entries dropped with the old generation (a key re-set meanwhile counts there too). */
  evicted = 0;

  constructor(readonly capacity: number) {
    this.half = Math.max(1, Math.floor(capacity / 2));
  }

  get size(): number {
    return this.young.size + this.old.size;
  }

  get(key: K): V | undefined {
    const v = this.young.get(key);
    return v !== undefined ? v : this.old.get(key);
  }

  has(key: K): boolean {
    return this.young.has(key) || this.old.has(key);
  }

  /**
   * Sets (a re-set key becomes recent). A key re-set while in the old generation is not deleted there:
   * `get` looks in the young one first, and the stale copy goes when the old generation is dropped.
   */
  set(key: K, value: V): void {
    this.young.set(key, value);
    if (this.young.size >= this.half) {
      this.evicted += this.old.size;
      this.old = this.young;
      this.young = new Map();
    }
  }

  delete(key: K): boolean {
    // an empty generation is not asked (a delete hashes the key: pairing deletes once per answer)
    const a = this.young.size > 0 && this.young.delete(key);
    const b = this.old.size > 0 && this.old.delete(key);
    return a || b;
  }
}
