const ADDRESS = /^[^\s<>,;"'()@]+@[^\s<>,;"'()@]+$/;

/**
 * The addresses of an RFC 5322 address list (`to`, `cc`), lower-cased, without duplicates. Only an
 * address counts: text in a display name (`"acme@inbound…" <x@y>`), a quoted string or a comment is
 * never taken for a recipient, so a sender cannot route mail by what it writes in a name.
 */
export function parseAddressList(value: string): string[] {
  // Quoted strings (with backslash escapes) and comments (not nested) carry no addresses.
  const stripped = value.replace(/"(?:[^"\\]|\\.)*"?/g, " ").replace(/\((?:[^()\\]|\\.)*\)?/g, " ");
  const addresses: string[] = [];
  for (const part of stripped.split(/[,;]/)) {
    const angle = /<([^<>]*)>/.exec(part);
    const candidate = (angle ? angle[1]! : part).trim().toLowerCase();
    if (ADDRESS.test(candidate) && !addresses.includes(candidate)) addresses.push(candidate);
  }
  return addresses;
}
