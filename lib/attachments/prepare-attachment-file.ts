import { PDFDocument } from "pdf-lib";
import sharp from "sharp";
import { AppError, BadRequest } from "@/lib/errors";
import { validatePdfUpload } from "@/lib/pdf/validate-pdf-upload";
import { MAX_ATTACHMENT_BYTES, MAX_ATTACHMENT_PAGES, MAX_IMAGE_PIXELS, PAGE_IMAGE_MAX_SIDE } from "./limits";

/** What a signer's file is, read from its first bytes (never from its name or the declared type). */
export type AttachmentSourceType = "application/pdf" | "image/jpeg" | "image/png" | "image/heic";

const HEIF_BRANDS = new Set(["heic", "heix", "hevc", "hevx", "heim", "heis", "mif1", "msf1"]);

export function sniffAttachmentType(bytes: Uint8Array): AttachmentSourceType | null {
  const ascii = (from: number, to: number) => Buffer.from(bytes.subarray(from, to)).toString("latin1");
  if (ascii(0, 5) === "%PDF-") return "application/pdf";
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "image/jpeg";
  if (bytes.length >= 8 && [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((b, i) => bytes[i] === b)) return "image/png";
  if (ascii(4, 8) === "ftyp" && HEIF_BRANDS.has(ascii(8, 12))) return "image/heic";
  return null;
}

/** A file as kept: always a PDF. */
export type PreparedAttachment = { pdf: Uint8Array; pageCount: number; sourceType: AttachmentSourceType; fileName: string };

const mib = (bytes: number) => `${bytes / 1024 / 1024} MiB`;

/**
 * Turns what a signer sent into the PDF that is kept. An image (JPEG, PNG, or HEIC when this
 * server's image library can decode it) is turned upright by its EXIF orientation, re-encoded with
 * no metadata at all (no EXIF, GPS, XMP, ICC or comments survive the re-encode) and placed alone on a
 * PDF page of its own proportions. A PDF is checked like any upload (opens, not encrypted, has pages)
 * and kept as sent, up to 50 pages. Anything else, or more than 20 MiB, is refused with a 4xx naming
 * what is wrong.
 */
export async function prepareAttachmentFile(input: { bytes: Uint8Array; name: string }): Promise<PreparedAttachment> {
  const { bytes } = input;
  if (bytes.byteLength === 0) throw BadRequest("The file is empty.");
  if (bytes.byteLength > MAX_ATTACHMENT_BYTES) {
    throw new AppError("payload_too_large", `The file is ${bytes.byteLength} bytes; an attachment may be at most ${mib(MAX_ATTACHMENT_BYTES)}.`);
  }
  const sourceType = sniffAttachmentType(bytes);
  if (!sourceType) throw BadRequest("The file is not a photo (JPEG, PNG or HEIC) or a PDF.");
  const baseName = (input.name.trim().replace(/[\\/]/g, "_").replace(/\.[A-Za-z0-9]{1,5}$/, "") || "Attachment").slice(0, 150);
  const fileName = `${baseName}.pdf`;
  if (sourceType === "application/pdf") {
    const pdf = await validatePdfUpload({ bytes, name: fileName, direct: true });
    if (pdf.pageCount > MAX_ATTACHMENT_PAGES) throw BadRequest(`The PDF has ${pdf.pageCount} pages; an attachment may have at most ${MAX_ATTACHMENT_PAGES}.`);
    return { pdf: bytes, pageCount: pdf.pageCount, sourceType, fileName };
  }
  const jpeg = await uprightJpeg(bytes, sourceType);
  const doc = await PDFDocument.create();
  const image = await doc.embedJpg(jpeg.data);
  // The page keeps the photo's proportions, its longer side 11 inches (a Letter page's).
  const scale = 792 / Math.max(jpeg.width, jpeg.height);
  const page = doc.addPage([jpeg.width * scale, jpeg.height * scale]);
  page.drawImage(image, { x: 0, y: 0, width: page.getWidth(), height: page.getHeight() });
  doc.setTitle(baseName);
  doc.setProducer("Closing & Signing");
  doc.setCreator("Closing & Signing");
  return { pdf: await doc.save(), pageCount: 1, sourceType, fileName };
}

/** The image decoded, rotated by its EXIF orientation, scaled down if huge, flattened on white and re-encoded as a bare JPEG. */
async function uprightJpeg(bytes: Uint8Array, sourceType: AttachmentSourceType): Promise<{ data: Buffer; width: number; height: number }> {
  try {
    const { data, info } = await sharp(bytes, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: "error" })
      .rotate()
      .resize({ width: PAGE_IMAGE_MAX_SIDE, height: PAGE_IMAGE_MAX_SIDE, fit: "inside", withoutEnlargement: true })
      .flatten({ background: "#ffffff" })
      .jpeg({ quality: 85, mozjpeg: true })
      .toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height };
  } catch (error) {
    const message = error instanceof Error ? error.message : "";
    if (/pixel limit/i.test(message)) throw BadRequest(`The photo is larger than ${MAX_IMAGE_PIXELS / 1_000_000} megapixels.`);
    if (sourceType === "image/heic") {
      throw BadRequest("This HEIC photo cannot be read here: send it as JPEG (on an iPhone, Settings › Camera › Formats › Most Compatible) or as a PDF.");
    }
    throw BadRequest(`The ${sourceType === "image/png" ? "PNG" : "JPEG"} image is damaged or cannot be read.`);
  }
}
