import { PDFDocument, PDFName } from "pdf-lib";

/**
 * One page of 75,000 fills of nearly the whole page (10 KB once compressed): a valid PDF that takes
 * far longer to render than any page budget, everywhere (a hostile scan).
 */
export async function fullPageFillsPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([612, 792]);
  const ops = Array.from({ length: 75_000 }, (_, i) => `${(i % 10) / 10} g ${i % 7} ${i % 5} 600 780 re f`).join("\n");
  page.node.set(PDFName.of("Contents"), doc.context.register(doc.context.flateStream(ops)));
  return doc.save();
}
