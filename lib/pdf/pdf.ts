import { createHash } from "node:crypto";
import { PDFDocument, StandardFonts, rgb } from "pdf-lib";

export function sha256Hex(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** Loads the bytes as a PDF and counts its pages; rejects anything that is not a readable PDF. */
export async function inspectPdf(bytes: Uint8Array): Promise<{ pageCount: number; sha256: string; sizeBytes: number }> {
  const header = Buffer.from(bytes.subarray(0, 5)).toString("latin1");
  if (header !== "%PDF-") throw new Error("not a PDF: missing %PDF- header");
  const pdf = await PDFDocument.load(bytes, { updateMetadata: false });
  return { pageCount: pdf.getPageCount(), sha256: sha256Hex(bytes), sizeBytes: bytes.byteLength };
}

/** Renders a simple multi-page agreement, used for the demo dataset and tests. */
export async function renderAgreementPdf(options: { title: string; parties: string[]; pages?: number }): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(options.title);
  pdf.setProducer("closing-signing-service");
  pdf.setCreationDate(new Date("2026-01-01T00:00:00Z"));
  pdf.setModificationDate(new Date("2026-01-01T00:00:00Z"));
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const pages = options.pages ?? 2;
  for (let n = 1; n <= pages; n++) {
    const page = pdf.addPage([612, 792]);
    page.drawText(options.title, { x: 56, y: 720, size: 18, font: bold, color: rgb(0.1, 0.1, 0.2) });
    page.drawText(`Page ${n} of ${pages}`, { x: 56, y: 700, size: 10, font });
    const lines =
      n < pages
        ? [
            "This agreement is made between the seller and the buyer(s) named below.",
            "The buyer agrees to pay the amount financed plus the finance charge",
            "according to the payment schedule, and grants the seller a security",
            "interest in the goods described in this contract.",
          ]
        : ["Signatures", ...options.parties.map((p) => `${p}: ______________________________  Date: __________`)];
    lines.forEach((line, i) => page.drawText(line, { x: 56, y: 660 - i * 22, size: 12, font }));
  }
  return pdf.save();
}
