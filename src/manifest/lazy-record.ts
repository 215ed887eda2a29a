/**
 * A record computed the first time anything reads it. Source positions are
 * one: every object carries the positions of its values, but only a problem
 * (at load, or later in a plan) ever reads them, so they are worked out then
 * (documents.ts). A Proxy, so that every reader (`record[path]`,
 * Object.hasOwn, spreading, JSON) sees the plain record it stands for.
 *
 * Every document has two, so they are kept small: one handler shared by all
 * of them, and the state in the proxy's target, in private fields that no
 * reader of the proxy sees. A handler of closures per record cost about
 * 700 bytes a record, 14 MB for 10,000 documents (docs/performance.md,
 * "Memory").
 */
class Deferred<V> {
  #compute: (() => Record<string, V>) | undefined;
  #real: Record<string, V> | undefined;

  constructor(compute: () => Record<string, V>) {
    this.#compute = compute;
  }

  /** The record, computed on the first call; the function that computes it is dropped then. */
  static real<V>(deferred: Deferred<V>): Record<string, V> {
    if (deferred.#real === undefined) {
      deferred.#real = (deferred.#compute as () => Record<string, V>)();
      deferred.#compute = undefined;
    }
    return deferred.#real;
  }
}

const real = Deferred.real;

const handler: ProxyHandler<Deferred<unknown>> = {
  // a plain record's prototype, not the target's class
  getPrototypeOf: () => Object.prototype,
  get: (target, key) => Reflect.get(real(target), key),
  has: (target, key) => Reflect.has(real(target), key),
  ownKeys: (target) => Reflect.ownKeys(real(target)),
  // the proxy's own target has no properties: what it reports must stay configurable
  getOwnPropertyDescriptor: (target, key) => {
    const descriptor = Reflect.getOwnPropertyDescriptor(real(target), key);
    return descriptor && { ...descriptor, configurable: true };
  },
  set: (target, key, value) => Reflect.set(real(target), key, value),
  defineProperty: (target, key, descriptor) => Reflect.defineProperty(real(target), key, descriptor),
  deleteProperty: (target, key) => Reflect.deleteProperty(real(target), key),
};

export function lazyRecord<V>(compute: () => Record<string, V>): Record<string, V> {
  return new Proxy(new Deferred(compute), handler as ProxyHandler<Deferred<V>>) as unknown as Record<string, V>;
}
