/**
 * A minimal DER reader and writer (X.690) for the structures long-term validation handles: certificates,
 * CRLs and OCSP messages. The reader keeps every element's exact byte range, which signature checks
 * need (the signed part is verified as it was encoded, never re-encoded).
 */
export type DerNode = {
  /** The identifier octet (class, constructed bit and tag number < 31). */
  tag: number;
  /** The whole element: header and content. */
  start: number;
  end: number;
  contentStart: number;
  bytes: Buffer;
};

export function readDer(bytes: Buffer, offset = 0): DerNode {
  if (offset + 2 > bytes.length) throw new Error("DER: truncated");
  const tag = bytes[offset]!;
  if ((tag & 0x1f) === 0x1f) throw new Error("DER: high tag numbers are not supported");
  let length = bytes[offset + 1]!;
  let contentStart = offset + 2;
  if (length & 0x80) {
    const count = length & 0x7f;
    if (count === 0 || count > 4) throw new Error("DER: unsupported length");
    length = 0;
    for (let i = 0; i < count; i++) length = length * 256 + bytes[offset + 2 + i]!;
    contentStart += count;
  }
  const end = contentStart + length;
  if (end > bytes.length) throw new Error("DER: truncated");
  return { tag, start: offset, end, contentStart, bytes };
}

/** The elements inside a constructed element. */
export function childrenOf(node: DerNode): DerNode[] {
  const out: DerNode[] = [];
  let at = node.contentStart;
  while (at < node.end) {
    const child = readDer(node.bytes, at);
    out.push(child);
    at = child.end;
  }
  return out;
}

export const contentOf = (node: DerNode): Buffer => node.bytes.subarray(node.contentStart, node.end);
export const encodedOf = (node: DerNode): Buffer => node.bytes.subarray(node.start, node.end);

export function oidText(node: DerNode): string {
  const c = contentOf(node);
  if (c.length === 0) return "";
  const parts = [Math.floor(c[0]! / 40) > 2 ? 2 : Math.floor(c[0]! / 40), c[0]! >= 80 ? c[0]! - 80 : c[0]! % 40];
  let value = 0;
  for (const byte of c.subarray(1)) {
    value = value * 128 + (byte & 0x7f);
    if (!(byte & 0x80)) {
      parts.push(value);
      value = 0;
    }
  }
  return parts.join(".");
}

/** One DER element: tag and content. */
export function tlv(tag: number, ...content: Buffer[]): Buffer {
  const body = Buffer.concat(content);
  const n = body.length;
  let header: number[];
  if (n < 0x80) header = [tag, n];
  else if (n < 0x100) header = [tag, 0x81, n];
  else if (n < 0x10000) header = [tag, 0x82, n >> 8, n & 0xff];
  else header = [tag, 0x83, n >> 16, (n >> 8) & 0xff, n & 0xff];
  return Buffer.concat([Buffer.from(header), body]);
}

export function oidDer(oid: string): Buffer {
  const [a, b, ...rest] = oid.split(".").map(Number) as [number, number, ...number[]];
  const bytes = [a * 40 + b];
  for (const part of rest) {
    const chunk = [part & 0x7f];
    let v = Math.floor(part / 128);
    while (v > 0) {
      chunk.unshift((v & 0x7f) | 0x80);
      v = Math.floor(v / 128);
    }
    bytes.push(...chunk);
  }
  return tlv(0x06, Buffer.from(bytes));
}

export const SEQUENCE = 0x30;
export const OCTET_STRING = 0x04;
export const INTEGER = 0x02;
export const NULL_DER = Buffer.from([0x05, 0x00]);
