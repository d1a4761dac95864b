/**
 * A function of an object computed once per object (held weakly): for values
 * a call needs every time but that only change with a new object, such as a
 * definition's hash or a listed tool's fingerprint.
 */
export function oncePerObject<K extends object, V>(compute: (key: K) => V): (key: K) => V {
  const values = new WeakMap<K, V>();
  return (key) => {
    if (values.has(key)) return values.get(key) as V;
    const value = compute(key);
    values.set(key, value);
    return value;
  };
}
