import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from "pdf-lib";
import QRCode from "qrcode";
import type { ExecutionMode } from "@/db/schema";
import { toPdfText } from "@/lib/pdf/pdf-text";
import { encodePageCode, formatCheck, pageCheck } from "./page-code";

export type TablePacketInput = {
  packageId: string;
  title: string;
  organizationName: string;
  createdAt: Date;
  borrowers: { name: string; email: string }[];
  appointment: { closingAt: Date | null; closingPlace: string | null; settlementAgent: string | null };
  /** Every document of the package, in order; only the ink ones (`wet_sign`, `notarize`) are printed. */
  documents: { id: string; name: string; executionMode: ExecutionMode; pageCount: number; content: Uint8Array }[];
};

const LETTER = { width: 612, height: 792 };
/** The strip kept free at the bottom of every stamped page for the code and its text. */
const STRIP = 96;
const QR_SIZE = 72;
const MARGIN = 36;
const INK = rgb(0, 0, 0);
const MUTED = rgb(0.3, 0.3, 0.33);

const MODE_TEXT: Record<ExecutionMode, string> = {
  esign: "e-signed online",
  wet_sign: "sign in ink at the table",
  notarize: "sign in ink before the notary",
  review_only: "only to read (acknowledged online)",
};

/**
 * The settlement agent's table packet: a cover sheet (package, borrowers, every document and how it
 * is executed, the appointment, return instructions), then every page of every ink document, scaled
 * into the upper part of a letter page, with a QR code and its human-readable text in the bottom
 * margin. The code of a page depends only on package, document and page (see `encodePageCode`), and
 * the file's dates are the package's creation time, so regenerating it yields the same codes.
 */
export async function buildTablePacket(input: TablePacketInput): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const mono = await pdf.embedFont(StandardFonts.Courier);
  const ink = input.documents.filter((d) => d.executionMode === "wet_sign" || d.executionMode === "notarize");

  drawCover(pdf.addPage([LETTER.width, LETTER.height]), input, ink, { regular, bold });

  for (const document of ink) {
    const source = await PDFDocument.load(document.content, { updateMetadata: false });
    const embedded = await pdf.embedPages(source.getPages());
    for (const [index, original] of embedded.entries()) {
      const page = pdf.addPage([LETTER.width, LETTER.height]);
      const area = { width: LETTER.width - 2 * MARGIN, height: LETTER.height - STRIP - MARGIN };
      const scale = Math.min(area.width / original.width, area.height / original.height, 1);
      const w = original.width * scale;
      const h = original.height * scale;
      page.drawPage(original, { x: (LETTER.width - w) / 2, y: STRIP + (area.height - h), width: w, height: h });
      const ref = { packageId: input.packageId, documentId: document.id, page: index + 1 };
      drawQr(page, encodePageCode(ref), { x: LETTER.width - MARGIN - QR_SIZE, y: 14, size: QR_SIZE });
      const lines = [
        `${document.name} · page ${index + 1} of ${document.pageCount} · ${MODE_TEXT[document.executionMode]}`,
        `Package ${input.packageId}`,
        `Document ${document.id}`,
        `Check ${formatCheck(pageCheck(ref))} · return this page with the signed packet`,
      ];
      lines.forEach((text, i) => {
        const font = i === 0 ? bold : i === 3 ? regular : mono;
        page.drawText(fit(text, font, 8, LETTER.width - 2 * MARGIN - QR_SIZE - 12), { x: MARGIN, y: 70 - i * 13, size: 8, font, color: i === 0 ? INK : MUTED });
      });
    }
  }

  pdf.setTitle(`Table packet — ${input.title}`.slice(0, 500));
  pdf.setProducer("Closing & Signing (pdf-lib)");
  pdf.setCreator("Closing & Signing");
  pdf.setCreationDate(input.createdAt);
  pdf.setModificationDate(input.createdAt);
  return pdf.save();
}

/** The QR symbol as black squares (vector, no image), error correction M, four-module quiet zone. */
function drawQr(page: PDFPage, text: string, at: { x: number; y: number; size: number }) {
  const qr = QRCode.create(text, { errorCorrectionLevel: "M" });
  const n = qr.modules.size;
  const quiet = 4;
  const cell = at.size / (n + 2 * quiet);
  page.drawRectangle({ x: at.x, y: at.y, width: at.size, height: at.size, color: rgb(1, 1, 1) });
  for (let row = 0; row < n; row++) {
    for (let col = 0; col < n; col++) {
      if (!qr.modules.get(row, col)) continue;
      page.drawRectangle({
        x: at.x + (quiet + col) * cell,
        y: at.y + at.size - (quiet + row + 1) * cell,
        width: cell,
        height: cell,
        color: INK,
      });
    }
  }
}

function drawCover(
  page: PDFPage,
  input: TablePacketInput,
  ink: TablePacketInput["documents"],
  fonts: { regular: PDFFont; bold: PDFFont },
) {
  let y = LETTER.height - 60;
  const line = (text: string, options: { font?: PDFFont; size?: number; color?: ReturnType<typeof rgb> } = {}) => {
    const size = options.size ?? 10.5;
    page.drawText(fit(text, options.font ?? fonts.regular, size, LETTER.width - 2 * 56), { x: 56, y, size, font: options.font ?? fonts.regular, color: options.color ?? INK });
    y -= size * 1.5;
  };
  line("Table packet", { font: fonts.bold, size: 20 });
  line(input.title, { font: fonts.bold, size: 13 });
  line(`${input.organizationName} · package ${input.packageId}`, { size: 9, color: MUTED });
  y -= 10;
  line("Appointment", { font: fonts.bold, size: 12 });
  const when = input.appointment.closingAt ? input.appointment.closingAt.toISOString().replace(/:00\.000Z$/, " UTC").replace("T", " ") : "not set";
  line(`When: ${when}`);
  line(`Where: ${input.appointment.closingPlace ?? "not set"}`);
  line(`Settlement agent: ${input.appointment.settlementAgent ?? "not set"}`);
  y -= 10;
  line("Borrowers", { font: fonts.bold, size: 12 });
  for (const b of input.borrowers) line(`${b.name} <${b.email}>`);
  y -= 10;
  line("Documents", { font: fonts.bold, size: 12 });
  for (const d of input.documents) {
    line(`${d.name} · ${d.pageCount} page${d.pageCount === 1 ? "" : "s"} · ${MODE_TEXT[d.executionMode]}${ink.includes(d) ? " · in this packet" : ""}`);
  }
  y -= 10;
  line("Return instructions", { font: fonts.bold, size: 12 });
  for (const text of [
    "Have every ink page signed (and notarized where marked), then scan all of them, in any order.",
    "Keep the code in each page's bottom corner visible; do not cover or cut it.",
    "Upload the scans (PDF, JPEG or PNG) on the package page; we match each page by its code",
    "and report any page that is missing, duplicated, from another package or unreadable.",
    "This cover sheet need not be scanned.",
  ]) line(text, { size: 10 });
}

/** Standard fonts print WinAnsi only; long names are cut with an ellipsis to the width. */
function fit(text: string, font: PDFFont, size: number, width: number): string {
  let out = toPdfText(text);
  if (font.widthOfTextAtSize(out, size) <= width) return out;
  while (out.length > 1 && font.widthOfTextAtSize(`${out}...`, size) > width) out = out.slice(0, -1);
  return `${out}...`;
}
