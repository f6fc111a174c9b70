/**
 * A Map whose order (oldest first) is kept beside it, for the FIFO and least-recently-used tables of
 * the memory stores. A plain Map keeps insertion order too, but V8 leaves a deleted entry in its
 * table as a hole until the table is rebuilt, and an iterator walks the holes: a table used as a
 * queue (new keys at the end, old ones deleted at the front) holds up to its capacity in holes before
 * its first live entry, so asking for the oldest entry cost ~4 µs at 10,000 entries and ~26 µs at
 * 100,000 (measured on Node 20). Here the order is an array of (key, stamp) records read from a
 * moving head: a record whose stamp is no longer its key's (deleted, or moved to the end) is stale and
 * passed once, then dropped when the array is compacted, so every operation is amortised O(1).
 *
 * Iterating while deleting is allowed, as with a Map; unlike a Map, an entry inserted or touched during
 * an iteration may not be visited by it (a compaction gives the order a new array).
 */
interface Slot<V> {
  value: V;
  stamp: number;
}

interface OrderRecord<K> {
  readonly key: K;
  readonly stamp: number;
}

/** compact once this many records at least are stale, and they are more than the live ones */
const COMPACT_AFTER = 64;

export class OrderedMap<K, V> {
  private readonly slots = new Map<K, Slot<V>>();
  private order: OrderRecord<K>[] = [];
  private head = 0;
  private nextStamp = 0;
  /** iterations under way: find moves no record while one is (it could visit a record twice) */
  private iterating = 0;

  get size(): number {
    return this.slots.size;
  }

  has(key: K): boolean {
    return this.slots.has(key);
  }

  get(key: K): V | undefined {
    return this.slots.get(key)?.value;
  }

  /** Sets the value; a new key goes last, a known one keeps its place. */
  set(key: K, value: V): void {
    const slot = this.slots.get(key);
    if (slot) slot.value = value;
    else this.append(key, { value, stamp: 0 });
  }

  /** Sets the value and makes the key the newest, whether it was there or not. */
  setNewest(key: K, value: V): void {
    const slot = this.slots.get(key);
    if (slot) {
      slot.value = value;
      slot.stamp = this.stamp(key);
      this.compactIfSparse();
    } else this.append(key, { value, stamp: 0 });
  }

  /** Makes a known key the newest; answers whether it was there. */
  touch(key: K): boolean {
    const slot = this.slots.get(key);
    if (!slot) return false;
    slot.stamp = this.stamp(key);
    this.compactIfSparse();
    return true;
  }

  delete(key: K): boolean {
    return this.slots.delete(key);
  }

  clear(): void {
    this.slots.clear();
    this.order = [];
    this.head = 0;
  }

  /** The oldest entry, or undefined when empty. */
  oldest(): [K, V] | undefined {
    while (this.head < this.order.length) {
      const record = this.order[this.head] as OrderRecord<K>;
      const slot = this.slots.get(record.key);
      if (slot && slot.stamp === record.stamp) return [record.key, slot.value];
      this.head += 1;
    }
    return undefined;
  }

  /**
   * The oldest entry whose value passes `test` (which must not change the map). The stale records the
   * search passes are dropped on the way: the live ones it passed move up to the found one, so a search
   * that keeps passing the same old entries (contexts that may not be evicted, say) does not also pass,
   * each time, the records of every entry deleted behind them since the last compaction.
   */
  find(test: (value: V, key: K) => boolean): [K, V] | undefined {
    const order = this.order;
    const passed: OrderRecord<K>[] = [];
    let index = this.head;
    let found: [K, V] | undefined;
    for (; index < order.length; index += 1) {
      const record = order[index] as OrderRecord<K>;
      const slot = this.slots.get(record.key);
      if (!slot || slot.stamp !== record.stamp) continue;
      if (test(slot.value, record.key)) {
        found = [record.key, slot.value];
        break;
      }
      passed.push(record);
    }
    if (this.iterating > 0) return found;
    // the passed live records, in their order, end just before where the search stopped
    const head = index - passed.length;
    for (let offset = 0; offset < passed.length; offset += 1)
      order[head + offset] = passed[offset] as OrderRecord<K>;
    this.head = head;
    return found;
  }

  /** The entries, oldest first. */
  *entries(): IterableIterator<[K, V]> {
    // pass the stale records at the front once for every later scan too
    this.oldest();
    const order = this.order;
    this.iterating += 1;
    try {
      for (let index = this.head; index < order.length; index += 1) {
        const record = order[index] as OrderRecord<K>;
        const slot = this.slots.get(record.key);
        if (slot && slot.stamp === record.stamp) yield [record.key, slot.value];
      }
    } finally {
      this.iterating -= 1;
    }
  }

  *keys(): IterableIterator<K> {
    for (const [key] of this.entries()) yield key;
  }

  *values(): IterableIterator<V> {
    for (const [, value] of this.entries()) yield value;
  }

  [Symbol.iterator](): IterableIterator<[K, V]> {
    return this.entries();
  }

  private append(key: K, slot: Slot<V>): void {
    slot.stamp = this.stamp(key);
    this.slots.set(key, slot);
    this.compactIfSparse();
  }

  private stamp(key: K): number {
    const stamp = this.nextStamp;
    this.nextStamp += 1;
    this.order.push({ key, stamp });
    return stamp;
  }

  private compactIfSparse(): void {
    const stale = this.order.length - this.slots.size;
    if (stale < COMPACT_AFTER || stale <= this.slots.size) return;
    const live: OrderRecord<K>[] = [];
    for (let index = this.head; index < this.order.length; index += 1) {
      const record = this.order[index] as OrderRecord<K>;
      if (this.slots.get(record.key)?.stamp === record.stamp) live.push(record);
    }
    this.order = live;
    this.head = 0;
  }
}
