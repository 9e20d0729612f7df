import { AppError, BadRequest } from "@/lib/errors";

/** The media types a logo may have (a direct upload declares one of them). */
export const LOGO_TYPES = ["image/png", "image/jpeg"] as const;
/** The largest logo we keep: a header image, not a photograph. */
export const LOGO_MAX_BYTES = 512 * 1024;
/** Neither side may exceed this many pixels (a decompression bomb declares huge sides in a small file). */
export const LOGO_MAX_SIDE = 2000;

export type LogoImage = { contentType: "image/png" | "image/jpeg"; width: number; height: number };

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function pngSize(bytes: Uint8Array): { width: number; height: number } | null {
  // Signature, then the IHDR chunk: length (4), "IHDR" (4), width (4), height (4).
  if (bytes.length < 24 || !PNG_SIGNATURE.every((b, i) => bytes[i] === b)) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (String.fromCharCode(...bytes.subarray(12, 16)) !== "IHDR") return null;
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

function jpegSize(bytes: Uint8Array): { width: number; height: number } | null {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return null;
  let offset = 2;
  while (offset + 4 <= bytes.length) {
    if (bytes[offset] !== 0xff) return null;
    const marker = bytes[offset + 1]!;
    if (marker === 0xff) {
      offset += 1; // fill byte
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return null; // end of image or start of scan before a frame header
    const length = (bytes[offset + 2]! << 8) | bytes[offset + 3]!;
    if (length < 2) return null;
    // Start-of-frame markers (baseline, progressive, …), not DHT (c4), JPG (c8) or DAC (cc).
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      if (offset + 9 > bytes.length) return null;
      return { height: (bytes[offset + 5]! << 8) | bytes[offset + 6]!, width: (bytes[offset + 7]! << 8) | bytes[offset + 8]! };
    }
    offset += 2 + length;
  }
  return null;
}

/**
 * Checks an uploaded logo by its bytes, never by its name or declared type: a PNG or a JPEG, at most
 * 512 KiB and 2000 px a side. Anything else (SVG, which can carry script, included) is refused with a
 * message saying what to upload instead.
 */
export function inspectLogo(bytes: Uint8Array): LogoImage {
  if (bytes.length === 0) throw BadRequest("logo: the file is empty.");
  if (bytes.length > LOGO_MAX_BYTES) {
    throw new AppError("payload_too_large", `logo: the file is ${Math.ceil(bytes.length / 1024)} KiB; a logo may be at most ${LOGO_MAX_BYTES / 1024} KiB.`);
  }
  const png = pngSize(bytes);
  const jpeg = png ? null : jpegSize(bytes);
  const size = png ?? jpeg;
  if (!size) throw BadRequest("logo: the file is not a PNG or JPEG image. Upload the logo as a PNG or JPEG.");
  if (size.width < 1 || size.height < 1 || size.width > LOGO_MAX_SIDE || size.height > LOGO_MAX_SIDE) {
    throw BadRequest(`logo: the image is ${size.width}×${size.height} pixels; each side must be between 1 and ${LOGO_MAX_SIDE}.`);
  }
  return { contentType: png ? "image/png" : "image/jpeg", ...size };
}
