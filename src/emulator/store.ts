/**
 * A collection of records by id, with a unique second key (a username, a
 * version string) so that both lookups are a Map hit, and a cached list in
 * insertion order for list endpoints: creation order is the stable order.
 */
export class Store<T extends { id: string }> {
  readonly #byId = new Map<string, T>();
  readonly #byKey = new Map<string, T>();
  readonly #keyOf: (item: T) => string;
  #list: T[] | undefined;

  constructor(keyOf: (item: T) => string, items: Iterable<T> = []) {
    this.#keyOf = keyOf;
    for (const item of items) this.add(item);
  }

  get size(): number {
    return this.#byId.size;
  }

  get(id: string): T | undefined {
    return this.#byId.get(id);
  }

  byKey(key: string): T | undefined {
    return this.#byKey.get(key);
  }

  add(item: T): void {
    this.#byId.set(item.id, item);
    this.#byKey.set(this.#keyOf(item), item);
    this.#list = undefined;
  }

  /** After the item's key changed: `previous` was its old key. */
  rekey(item: T, previous: string): void {
    if (this.#byKey.get(previous) === item) this.#byKey.delete(previous);
    this.#byKey.set(this.#keyOf(item), item);
  }

  delete(item: T): void {
    this.#byId.delete(item.id);
    this.#byKey.delete(this.#keyOf(item));
    this.#list = undefined;
  }

  /** Every record in creation order; the array is shared until the next add or delete. */
  values(): readonly T[] {
    this.#list ??= [...this.#byId.values()];
    return this.#list;
  }
}
