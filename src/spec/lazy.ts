/**
 * Objects whose members are built on first read: a reader that meets one method of one revision builds
 * only that method's schemas (zod schemas cost more to build than to run once). Pure.
 */

/** An object with the members `build` makes, each built once, when first read (enumerable, like plain members). */
export function lazy<T extends object>(build: { [K in keyof T]: () => T[K] }): T {
  const out = {} as T;
  for (const key of Object.keys(build) as Array<keyof T>) {
    Object.defineProperty(out, key, {
      enumerable: true,
      configurable: true,
      get() {
        const value = build[key]();
        Object.defineProperty(out, key, { value, enumerable: true });
        return value;
      },
    });
  }
  return out;
}
