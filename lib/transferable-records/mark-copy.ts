import { degrees, PDFDict, PDFDocument, PDFName, PDFString, rgb, StandardFonts } from "pdf-lib";
import { toPdfText } from "@/lib/pdf/pdf-text";

export const COPY_KEYWORD_PREFIX = "transferable-record-copy:";

export type CopyNotice = {
  recordId: string;
  /** The organization that holds the authoritative copy now. */
  controllerName: string;
  status: "active" | "paper_out";
  verifyUrl: string;
};

/**
 * A copy of a transferable record's sealed PDF, readily identifiable as a copy (UCC 9-105(b)(4)):
 * a large "COPY" across every page and, at the foot of every page, where the authoritative copy is
 * held (or that the record was converted to paper). The record's id goes into the document information (`/TransferableRecordCopy`) so
 * `/verify` can name its controller. Re-saving breaks the seal's signature over the file, as it
 * should: only the authoritative copy carries an intact seal.
 */
export async function markCopy(bytes: Uint8Array, notice: CopyNotice): Promise<Uint8Array> {
  const pdf = await PDFDocument.load(bytes, { updateMetadata: false });
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const line =
    notice.status === "paper_out"
      ? `COPY. This transferable record (record ${notice.recordId}) was converted to paper; its electronic authoritative copy is retired.`
      : `COPY, not the authoritative copy. The authoritative copy of this transferable record (record ${notice.recordId}) is held in the eVault of ${notice.controllerName}.`;
  const check = `Current controller and history: ${notice.verifyUrl}`;
  for (const page of pdf.getPages()) {
    const { width, height } = page.getSize();
    const size = Math.min(width, height) / 4;
    const textWidth = bold.widthOfTextAtSize("COPY", size);
    page.drawText("COPY", {
      x: width / 2 - (textWidth / 2) * Math.cos(Math.PI / 4) + (size / 3) * Math.sin(Math.PI / 4),
      y: height / 2 - (textWidth / 2) * Math.sin(Math.PI / 4) - (size / 3) * Math.cos(Math.PI / 4),
      size,
      font: bold,
      color: rgb(0.75, 0.1, 0.1),
      opacity: 0.22,
      rotate: degrees(45),
    });
    const fontSize = Math.max(5, Math.min(7, (width - 24) / regular.widthOfTextAtSize(toPdfText(line), 1)));
    page.drawRectangle({ x: 0, y: 0, width, height: 22, color: rgb(1, 1, 1), opacity: 0.85 });
    page.drawText(toPdfText(line), { x: 12, y: 12, size: fontSize, font: bold, color: rgb(0.6, 0.05, 0.05) });
    page.drawText(toPdfText(check), { x: 12, y: 4, size: fontSize, font: regular, color: rgb(0.3, 0.3, 0.3) });
  }
  // A literal string (pdf-lib's setKeywords writes UTF-16 hex), so /verify finds it in the bytes.
  pdf.setProducer("Closing & Signing (copy of a transferable record)");
  pdf.context.lookup(pdf.context.trailerInfo.Info, PDFDict).set(PDFName.of("TransferableRecordCopy"), PDFString.of(`${COPY_KEYWORD_PREFIX}${notice.recordId}`));
  return pdf.save({ useObjectStreams: false, updateFieldAppearances: false });
}
