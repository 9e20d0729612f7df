/** A message catalog as written in messages/<locale>.json: nested namespaces of ICU strings. */
export type Catalog = { [key: string]: string | Catalog };

/** Every message of a catalog by its dotted key ("package.title"), in the catalog's order. */
export function flattenCatalog(catalog: Catalog, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(catalog)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === "string") out.set(path, value);
    else for (const [k, v] of flattenCatalog(value, path)) out.set(k, v);
  }
  return out;
}
