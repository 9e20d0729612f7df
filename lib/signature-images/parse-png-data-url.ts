import { MAX_SIGNATURE_IMAGE_BYTES } from "./signature-image-limit";

export { MAX_SIGNATURE_IMAGE_BYTES };

const PREFIX = "data:image/png;base64,";
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * Decodes a drawn signature: a `data:image/png;base64,` URL whose bytes are a PNG (signature, an
 * IHDR chunk first, non-zero dimensions) of at most 200 KiB. Returns the bytes, or a reason it is not.
 */
export function parsePngDataUrl(value: string): { ok: true; bytes: Buffer } | { ok: false; reason: string } {
  if (!value.startsWith(PREFIX)) return { ok: false, reason: "must start with data:image/png;base64," };
  const encoded = value.slice(PREFIX.length);
  if (encoded.length === 0 || encoded.length % 4 !== 0 || !BASE64.test(encoded)) {
    return { ok: false, reason: "is not valid base64" };
  }
  if ((encoded.length / 4) * 3 > MAX_SIGNATURE_IMAGE_BYTES + 2) {
    return { ok: false, reason: `exceeds ${MAX_SIGNATURE_IMAGE_BYTES} bytes` };
  }
  const bytes = Buffer.from(encoded, "base64");
  if (bytes.length > MAX_SIGNATURE_IMAGE_BYTES) return { ok: false, reason: `exceeds ${MAX_SIGNATURE_IMAGE_BYTES} bytes` };
  if (bytes.length < 33 || !bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return { ok: false, reason: "is not a PNG image" };
  if (bytes.readUInt32BE(8) !== 13 || bytes.subarray(12, 16).toString("latin1") !== "IHDR") {
    return { ok: false, reason: "is not a PNG image (no IHDR chunk)" };
  }
  if (bytes.readUInt32BE(16) === 0 || bytes.readUInt32BE(20) === 0) return { ok: false, reason: "has an empty image size" };
  return { ok: true, bytes };
}
