import { PDFDocument, PDFNumber, PDFStream, type PDFObject, type PDFRef } from "pdf-lib";

/**
 * A PDF opened to be changed by an incremental update (ISO 32000-1 § 7.5.6): the original bytes stay
 * as they are, and what changed (the objects pdf-lib added, and the original objects it modified) is
 * appended after them as a new revision with its own cross-reference section and a trailer whose
 * /Prev points at the original's. The sealed file is then `base` followed by `update`: the original
 * is never copied or re-serialized, so sealing a 50 MB package holds its bytes once, not once per
 * save and signing pass.
 */
export type IncrementalPdf = {
  /** The bytes the update is appended to (the original, or pdf-lib's rewrite of it when it could not be updated in place). */
  base: Uint8Array;
  pdfDoc: PDFDocument;
  /** Each original object's serialization (a stream's dictionary only), to find which ones pdf-lib changed. */
  originals: Map<string, string>;
  largestOriginalObjectNumber: number;
  /** The byte offset of the base's last cross-reference section (its `startxref`). */
  previousXrefOffset: number;
};

/**
 * Opens `bytes` for an incremental update. A file whose last `startxref` does not lead to a
 * cross-reference section (a damaged file pdf-lib repaired by scanning) cannot be updated in place;
 * it is rewritten once by pdf-lib and the update is appended to that rewrite.
 */
export async function openIncrementalPdf(bytes: Uint8Array): Promise<IncrementalPdf> {
  let base = bytes;
  let pdfDoc = await PDFDocument.load(base, { updateMetadata: false });
  let previous = lastXrefSection(base);
  if (previous === null || pdfDoc.context.trailerInfo.Encrypt) {
    base = await pdfDoc.save({ useObjectStreams: false });
    pdfDoc = await PDFDocument.load(base, { updateMetadata: false });
    previous = lastXrefSection(base);
    if (previous === null) throw new Error("The rewritten PDF has no cross-reference section.");
  }
  // pdf-lib does not keep a file's object streams and cross-reference stream as objects, so its
  // count can be below the file's: new objects are numbered from the file's /Size, or one of them
  // would take the number of an object stream the original's cross-reference points into.
  const context = pdfDoc.context;
  context.largestObjectNumber = Math.max(context.largestObjectNumber, previous.size - 1);
  const originals = new Map<string, string>();
  for (const [ref, object] of context.enumerateIndirectObjects()) originals.set(ref.tag, fingerprint(object));
  return { base, pdfDoc, originals, largestOriginalObjectNumber: context.largestObjectNumber, previousXrefOffset: previous.offset };
}

/** A brand-new document (the standalone certificate): saved once, then opened for its signature's update. */
export async function incrementalPdfFromNew(pdfDoc: PDFDocument): Promise<IncrementalPdf> {
  return openIncrementalPdf(await pdfDoc.save({ useObjectStreams: false }));
}

function fingerprint(object: PDFObject): string {
  if (object instanceof PDFStream) return `stream ${object.dict.toString()}`;
  return object.toString();
}

/**
 * The objects pdf-lib added or changed since `openIncrementalPdf`, serialized as the next revision:
 * each object, a classic cross-reference section for them, and a trailer with /Prev. (A classic
 * section may follow a cross-reference stream: readers follow /Prev whatever the previous section's
 * form.) Fonts and images still pending in pdf-lib are embedded first.
 */
export async function serializeIncrementalUpdate(pdf: IncrementalPdf): Promise<Uint8Array> {
  const { pdfDoc, base } = pdf;
  await pdfDoc.flush();
  const context = pdfDoc.context;
  const changed = context
    .enumerateIndirectObjects()
    .filter(([ref, object]) => ref.objectNumber > pdf.largestOriginalObjectNumber || pdf.originals.get(ref.tag) !== fingerprint(object))
    .sort(([a], [b]) => a.objectNumber - b.objectNumber);

  const ends = base.byteLength > 0 && (base[base.byteLength - 1] === 0x0a || base[base.byteLength - 1] === 0x0d);
  const parts: Uint8Array[] = [];
  let size = 0;
  const push = (chunk: Uint8Array) => {
    parts.push(chunk);
    size += chunk.byteLength;
  };
  if (!ends) push(latin1("\n"));
  const offsets: [PDFRef, number][] = [];
  for (const [ref, object] of changed) {
    offsets.push([ref, base.byteLength + size]);
    const body = new Uint8Array(object.sizeInBytes());
    object.copyBytesInto(body, 0);
    push(latin1(`${ref.objectNumber} ${ref.generationNumber} obj\n`));
    push(body);
    push(latin1("\nendobj\n"));
  }
  const xrefOffset = base.byteLength + size;
  push(latin1(crossReferenceSection(offsets)));
  const trailer = context.obj({
    Size: PDFNumber.of(context.largestObjectNumber + 1),
    Root: context.trailerInfo.Root,
    Info: context.trailerInfo.Info,
    ID: context.trailerInfo.ID,
    Prev: PDFNumber.of(pdf.previousXrefOffset),
  });
  push(latin1(`trailer\n${trailer.toString()}\nstartxref\n${xrefOffset}\n%%EOF\n`));

  const update = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    update.set(part, at);
    at += part.byteLength;
  }
  return update;
}

/** `xref` with one subsection per run of consecutive object numbers. */
function crossReferenceSection(offsets: [PDFRef, number][]): string {
  let text = "xref\n";
  let i = 0;
  while (i < offsets.length) {
    let j = i + 1;
    while (j < offsets.length && offsets[j]![0].objectNumber === offsets[j - 1]![0].objectNumber + 1) j++;
    text += `${offsets[i]![0].objectNumber} ${j - i}\n`;
    for (const [ref, offset] of offsets.slice(i, j)) text += `${String(offset).padStart(10, "0")} ${String(ref.generationNumber).padStart(5, "0")} n \n`;
    i = j;
  }
  return text;
}

/**
 * The base's last cross-reference section: the offset its last `startxref` gives, when that leads
 * to a table (`xref`, its trailer after it) or a stream (`n g obj` with /Type /XRef), and the /Size
 * its trailer declares; null otherwise.
 */
export function lastXrefSection(bytes: Uint8Array): { offset: number; size: number } | null {
  const text = (from: number, length: number) => Buffer.from(bytes.buffer, bytes.byteOffset + from, Math.max(0, Math.min(length, bytes.byteLength - from))).toString("latin1");
  const tailFrom = Math.max(0, bytes.byteLength - 2048);
  const tail = text(tailFrom, 2048);
  const offset = Number([...tail.matchAll(/startxref\s+(\d+)/g)].at(-1)?.[1] ?? NaN);
  if (!Number.isSafeInteger(offset) || offset <= 0 || offset >= bytes.byteLength) return null;
  const head = text(offset, 2048);
  let dictionary: string | undefined;
  if (head.startsWith("xref")) {
    // The trailer follows the table; it sits just before the `startxref` at the end of the file.
    const trailerAt = tail.lastIndexOf("trailer");
    if (trailerAt < 0 || tailFrom + trailerAt < offset) return null;
    dictionary = tail.slice(trailerAt, tail.lastIndexOf("startxref"));
  } else if (/^\d+\s+\d+\s+obj\b/.test(head) && /\/Type\s*\/XRef\b/.test(head.slice(0, head.indexOf("stream") < 0 ? undefined : head.indexOf("stream")))) {
    dictionary = head.slice(0, head.indexOf("stream"));
  }
  const size = Number(/\/Size\s+(\d+)/.exec(dictionary ?? "")?.[1] ?? NaN);
  if (!Number.isSafeInteger(size) || size <= 0) return null;
  return { offset, size };
}

const latin1 = (text: string) => new Uint8Array(Buffer.from(text, "latin1"));
