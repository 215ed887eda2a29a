/**
 * A record computed the first time anything reads it. Source positions are
 * one: every object carries the positions of its values, but only a problem
 * (at load, or later in a plan) ever reads them, so they are worked out then
 * (documents.ts). A Proxy, so that every reader (`record[path]`,
 * Object.hasOwn, spreading, JSON) sees the plain record it stands for.
 */
export function lazyRecord<V>(compute: () => Record<string, V>): Record<string, V> {
  let real: Record<string, V> | undefined;
  const target = () => {
    real ??= compute();
    return real;
  };
  return new Proxy({} as Record<string, V>, {
    get: (_, key) => Reflect.get(target(), key),
    has: (_, key) => Reflect.has(target(), key),
    ownKeys: () => Reflect.ownKeys(target()),
    // the proxy's own target is empty: what it reports must stay configurable
    getOwnPropertyDescriptor: (_, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(target(), key);
      return descriptor && { ...descriptor, configurable: true };
    },
    set: (_, key, value) => Reflect.set(target(), key, value),
    defineProperty: (_, key, descriptor) => Reflect.defineProperty(target(), key, descriptor),
    deleteProperty: (_, key) => Reflect.deleteProperty(target(), key),
  });
}
