import { StandardFonts, type PDFDocument, rgb, type PDFFont, type PDFImage, type PDFPage } from "pdf-lib";
import type { DocumentField, ESignature } from "@/db/schema";
import { parsePngDataUrl } from "@/lib/signature-images/parse-png-data-url";
import type { SealEvidence, SealSigner } from "./load-seal-evidence";
import { toPdfText } from "@/lib/pdf/pdf-text";
import { signatureFontBytes } from "./signature-font-bytes";
import { formatSealTime } from "./format-seal-time";

const INK = rgb(0.05, 0.1, 0.3);
const TEXT = rgb(0.1, 0.1, 0.12);
const MUTED = rgb(0.35, 0.37, 0.42);

type Fonts = { regular: PDFFont; bold: PDFFont; signature: (font: string) => Promise<PDFFont> };

/**
 * Draws on a package document (opened by the caller) what its signers put on it: each field's value in its box,
 * and each signature field from the signer's e-signature on this document (the drawn image, or the
 * typed text in its font). A document without fields gets a signature page instead, one block per
 * signer who signed it — the same adopted signature the signer saw before signing.
 */
export async function stampDocument(
  evidence: SealEvidence,
  document: SealEvidence["documents"][number],
  pdfDoc: PDFDocument,
): Promise<PDFDocument> {
  // Imported on first use: fontkit is large and only sealing needs it, not a cold start.
  const { default: fontkit } = await import("@pdf-lib/fontkit");
  pdfDoc.registerFontkit(fontkit);
  const embedded = new Map<string, Promise<PDFFont>>();
  const fonts: Fonts = {
    regular: await pdfDoc.embedFont(StandardFonts.Helvetica),
    bold: await pdfDoc.embedFont(StandardFonts.HelveticaBold),
    signature: (font) => {
      let f = embedded.get(font);
      if (!f) {
        f = signatureFontBytes(font).then((bytes) => pdfDoc.embedFont(bytes, { subset: true }));
        embedded.set(font, f);
      }
      return f;
    },
  };
  const signatures = evidence.signatures.filter((s) => s.documentId === document.id);
  const bySigner = new Map(signatures.map((s) => [s.signerId, s]));
  const fields = evidence.fields.filter((f) => f.documentId === document.id);
  const pages = pdfDoc.getPages();

  if (fields.length === 0) {
    await drawSignaturePage(pdfDoc, fonts, evidence.signers.filter((s) => bySigner.has(s.id)), bySigner);
  } else {
    for (const field of fields) {
      const page = pages[field.page - 1];
      if (!page) continue;
      await drawField(pdfDoc, page, fonts, field, bySigner.get(field.signerId ?? ""));
    }
  }
  return pdfDoc;
}

async function drawField(pdfDoc: PDFDocument, page: PDFPage, fonts: Fonts, field: DocumentField, signature: ESignature | undefined) {
  const crop = page.getCropBox();
  const box = { x: crop.x + field.x, y: crop.y + field.y, width: field.width, height: field.height };
  switch (field.type) {
    case "signature":
      if (signature) await drawSignature(pdfDoc, page, fonts, signature, box);
      return;
    case "initials":
      if (field.value) drawFitted(page, toPdfText(field.value), await fonts.signature(signature?.typedFont ?? "dancing-script"), box, INK);
      return;
    case "checkbox":
      if (field.value === "true") drawCheck(page, box);
      return;
    default:
      if (field.value) drawFitted(page, toPdfText(field.value), fonts.regular, box, TEXT);
  }
}

type Box = { x: number; y: number; width: number; height: number };

async function drawSignature(pdfDoc: PDFDocument, page: PDFPage, fonts: Fonts, signature: ESignature, box: Box) {
  if (signature.kind === "drawn" && signature.imageDataUrl) {
    const png = parsePngDataUrl(signature.imageDataUrl);
    if (!png.ok) return;
    const image: PDFImage = await pdfDoc.embedPng(png.bytes);
    const scale = Math.min(box.width / image.width, box.height / image.height);
    const w = image.width * scale;
    const h = image.height * scale;
    page.drawImage(image, { x: box.x, y: box.y + (box.height - h) / 2, width: w, height: h });
    return;
  }
  if (signature.typedText) {
    const font = await fonts.signature(signature.typedFont ?? "dancing-script");
    drawFitted(page, signature.typedText, font, box, INK);
  }
}

/** Text as large as fits the box (at most 80 % of its height), left-aligned, vertically centred. */
function drawFitted(page: PDFPage, text: string, font: PDFFont, box: Box, color = TEXT) {
  let size = box.height * 0.8;
  const width = safeWidth(font, text, size);
  if (width > box.width) size = (size * box.width) / width;
  size = Math.max(4, size);
  const ascent = font.heightAtSize(size, { descender: false });
  page.drawText(safeText(font, text), { x: box.x, y: box.y + (box.height - ascent) / 2, size, font, color });
}

/** Typed text in a signature font may hold characters the face lacks; those become "?" instead of throwing. */
function safeText(font: PDFFont, text: string): string {
  const supported = new Set(font.getCharacterSet?.() ?? []);
  if (supported.size === 0) return text;
  return [...text].map((ch) => (supported.has(ch.codePointAt(0)!) ? ch : "?")).join("");
}

function safeWidth(font: PDFFont, text: string, size: number): number {
  return font.widthOfTextAtSize(safeText(font, text), size);
}

function drawCheck(page: PDFPage, box: Box) {
  const s = Math.min(box.width, box.height);
  const x = box.x + (box.width - s) / 2;
  const y = box.y + (box.height - s) / 2;
  page.drawLine({ start: { x: x + s * 0.15, y: y + s * 0.5 }, end: { x: x + s * 0.4, y: y + s * 0.2 }, thickness: Math.max(1, s * 0.12), color: INK });
  page.drawLine({ start: { x: x + s * 0.4, y: y + s * 0.2 }, end: { x: x + s * 0.88, y: y + s * 0.85 }, thickness: Math.max(1, s * 0.12), color: INK });
}

async function drawSignaturePage(pdfDoc: PDFDocument, fonts: Fonts, signers: SealSigner[], bySigner: Map<string, ESignature>) {
  if (signers.length === 0) return;
  const width = 612;
  const height = 792;
  const blockHeight = 120;
  let page = pdfDoc.addPage([width, height]);
  let y = height - 72;
  page.drawText("Signatures", { x: 56, y, size: 18, font: fonts.bold, color: TEXT });
  y -= 36;
  for (const signer of signers) {
    const signature = bySigner.get(signer.id)!;
    if (y - blockHeight < 56) {
      page = pdfDoc.addPage([width, height]);
      y = height - 72;
    }
    await drawSignature(pdfDoc, page, fonts, signature, { x: 56, y: y - 56, width: 300, height: 52 });
    page.drawLine({ start: { x: 56, y: y - 62 }, end: { x: 400, y: y - 62 }, thickness: 0.75, color: MUTED });
    page.drawText(toPdfText(signer.name), { x: 56, y: y - 78, size: 11, font: fonts.bold, color: TEXT });
    page.drawText(toPdfText(`${signer.role === "co_signer" ? "Co-signer" : "Signer"} · signed ${formatSealTime(signature.createdAt)}`), {
      x: 56,
      y: y - 93,
      size: 9,
      font: fonts.regular,
      color: MUTED,
    });
    y -= blockHeight;
  }
}
