import jsQR from "jsqr";
import sharp from "sharp";
import { decodePageCode, type PageRef } from "./page-code";

export type PageReading =
  | { outcome: "read"; ref: PageRef; rotation: 0 | 90 | 180 | 270 }
  | { outcome: "forged" }
  | { outcome: "unreadable" };

/** Scans are brought to this long edge (about 150 dpi on letter) before looking for the code. */
const WORK_LONG_EDGE = 1650;

/**
 * Where the code is looked for, in this order: each corner (where it sits however the page was
 * turned; a corner is this fraction of the page's width and height), then the whole page. The scan
 * renderer's worker looks in the same places on a page it has just drawn (`FoundCode`).
 */
export const CODE_CORNER = { width: 0.4, height: 0.32 } as const;

/** A QR code found on a page image: its text and the two top corners of the symbol (pixels). */
export type FoundCode = { text: string; topLeft: { x: number; y: number }; topRight: { x: number; y: number } };

/**
 * Finds a table-packet code on one scanned page image (PNG or JPEG; rotated any multiple of 90°,
 * slightly skewed, 150–300 dpi). The page is greyscaled and brought to ~150 dpi, then jsQR looks in
 * each corner (where the code sits however the page was turned) and, failing that, in the whole
 * page. `rotation` is how far the page must be turned clockwise to stand upright, taken from the
 * code's orientation. A code that is ours in form but fails its check is `forged`.
 */
export async function readPageCode(image: Uint8Array, found?: FoundCode | null): Promise<PageReading> {
  // A page the renderer drew and searched already (its own pixels, before JPEG encoding): the first
  // code found decides, as below; a code that is not ours, or none, and the image is searched as usual.
  if (found) {
    const decoded = decodePageCode(found.text);
    if (decoded.ok) return { outcome: "read", ref: decoded.ref, rotation: rotationOf(found) };
    if (decoded.reason === "bad_check") return { outcome: "forged" };
  }
  const base = sharp(image, { failOn: "none" }).rotate().greyscale();
  const { width = 0, height = 0 } = await base.metadata();
  if (width === 0 || height === 0) return { outcome: "unreadable" };
  const scale = Math.min(1, WORK_LONG_EDGE / Math.max(width, height));
  const { data, info } = await base
    .resize(Math.round(width * scale), Math.round(height * scale))
    .raw()
    .toBuffer({ resolveWithObject: true });
  const w = info.width;
  const h = info.height;
  const cw = Math.round(w * CODE_CORNER.width);
  const ch = Math.round(h * CODE_CORNER.height);
  const regions = [
    { x: w - cw, y: h - ch, w: cw, h: ch },
    { x: 0, y: 0, w: cw, h: ch },
    { x: w - cw, y: 0, w: cw, h: ch },
    { x: 0, y: h - ch, w: cw, h: ch },
    { x: 0, y: 0, w, h },
  ];
  for (const region of regions) {
    const found = scanRegion(data, w, region);
    if (!found) continue;
    const decoded = decodePageCode(found.text);
    if (!decoded.ok) {
      if (decoded.reason === "bad_check") return { outcome: "forged" };
      continue;
    }
    return { outcome: "read", ref: decoded.ref, rotation: found.rotation };
  }
  return { outcome: "unreadable" };
}

function scanRegion(grey: Buffer, stride: number, r: { x: number; y: number; w: number; h: number }) {
  const rgba = new Uint8ClampedArray(r.w * r.h * 4);
  for (let y = 0; y < r.h; y++) {
    const row = (r.y + y) * stride + r.x;
    for (let x = 0; x < r.w; x++) {
      const v = grey[row + x]!;
      const o = (y * r.w + x) * 4;
      rgba[o] = v;
      rgba[o + 1] = v;
      rgba[o + 2] = v;
      rgba[o + 3] = 255;
    }
  }
  const code = jsQR(rgba, r.w, r.h, { inversionAttempts: "dontInvert" });
  if (!code) return null;
  return { text: code.data, rotation: rotationOf({ topLeft: code.location.topLeftCorner, topRight: code.location.topRightCorner }) };
}

/** The code's top edge points right on an upright page; its angle says how far to turn the page clockwise. */
function rotationOf({ topLeft: a, topRight: b }: Pick<FoundCode, "topLeft" | "topRight">): 0 | 90 | 180 | 270 {
  const angle = (Math.atan2(b.y - a.y, b.x - a.x) * 180) / Math.PI;
  const turned = ((Math.round(angle / 90) * 90) % 360 + 360) % 360;
  return ((360 - turned) % 360) as 0 | 90 | 180 | 270;
}
