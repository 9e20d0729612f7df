import { deflateSync } from "node:zlib";
import { PDFDocument } from "pdf-lib";
import { childrenOf, encodedOf, oidText, readDer, type DerNode } from "./der";
import { collectValidationData, type RevocationCache, type ValidationData } from "./revocation-data";
import { OID_TIMESTAMP_TOKEN_ATTRIBUTE } from "./timestamp-token";

/**
 * PAdES-B-LT (ETSI EN 319 142-1 § 5.4): when a certificate of a signed PDF's last signature (the
 * sealing certificate, its chain, or the time-stamp authority's) names a revocation service, adds the
 * chain and the revocation data to the file in a Document Security Store, as an incremental update
 * appended after the signed bytes (the signature's /ByteRange is untouched and still verifies).
 *
 * Input: the signed PDF's bytes; output: the same bytes followed by one revision. When no certificate
 * names a revocation service the bytes come back unchanged (B-T stays B-T). The signing path never
 * sees this: it runs on the finished signature.
 *
 * Throws what `collectValidationData` throws: `RevocationUnavailableError` (the seal waits and is
 * retried) or `CertificateRevokedError`.
 */
export async function addLongTermValidation(signedPdf: Buffer, options: { cache?: RevocationCache } = {}): Promise<Buffer> {
  const certificates = signatureCertificates(signedPdf);
  if (certificates.length === 0) return signedPdf;
  const data = await collectValidationData(certificates, options.cache);
  if (data.ocsps.length === 0 && data.crls.length === 0) return signedPdf;
  return appendDss(signedPdf, data);
}

/**
 * The validation data for a seal's signature, read from its revision alone (`update`, which follows
 * `base` in the file and holds the signature), or null when no certificate names a revocation service.
 */
export async function revisionValidationData(sealed: { base: Uint8Array; update: Uint8Array }, cache?: RevocationCache): Promise<ValidationData | null> {
  const update = Buffer.from(sealed.update.buffer, sealed.update.byteOffset, sealed.update.byteLength);
  const certificates = signatureCertificates(update, sealed.base.byteLength);
  if (certificates.length === 0) return null;
  const data = await collectValidationData(certificates, cache);
  return data.ocsps.length === 0 && data.crls.length === 0 ? null : data;
}

/**
 * Every certificate in the last signature's CMS: the signer's and its chain, and those inside a
 * signature-time-stamp token. `offset`: where `pdf` starts in the file (the /ByteRange counts from the file's start).
 */
export function signatureCertificates(pdf: Buffer, offset = 0): Buffer[] {
  const text = pdf.toString("latin1");
  const ranges = [...text.matchAll(/\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g)];
  const last = ranges.at(-1);
  if (!last) return [];
  const [b, c] = [Number(last[2]) - offset, Number(last[3]) - offset];
  const hex = text.slice(b + 1, c - 1).replace(/\s+/g, "");
  if (!/^[0-9a-fA-F]+$/.test(hex)) return [];
  try {
    const cms = readDer(Buffer.from(hex.length % 2 ? `${hex}0` : hex, "hex"));
    const out = certificatesOfSignedData(cms);
    const signedData = childrenOf(childrenOf(childrenOf(cms)[1]!)[0]!);
    for (const signerInfo of childrenOf(signedData.at(-1)!)) {
      const unsigned = childrenOf(signerInfo).find((n) => n.tag === 0xa1);
      for (const attribute of unsigned ? childrenOf(unsigned) : []) {
        const [type, values] = childrenOf(attribute);
        if (oidText(type!) !== OID_TIMESTAMP_TOKEN_ATTRIBUTE) continue;
        for (const token of childrenOf(values!)) out.push(...certificatesOfSignedData(token));
      }
    }
    return out;
  } catch {
    return [];
  }
}

function certificatesOfSignedData(contentInfo: DerNode): Buffer[] {
  const signedData = childrenOf(childrenOf(childrenOf(contentInfo)[1]!)[0]!);
  const certificates = signedData.find((n) => n.tag === 0xa0);
  return certificates ? childrenOf(certificates).filter((n) => n.tag === 0x30).map((n) => Buffer.from(encodedOf(n))) : [];
}

type Trailer = { size: number; root: { num: number; gen: number }; info: string | null; id: string | null; startxref: number };

/**
 * Appends a revision holding /DSS << /Certs [...] /OCSPs [...] /CRLs [...] >> (each entry a stream of
 * the DER bytes, Flate-compressed) and a new version of the catalog pointing at it, with a classic
 * cross-reference section whose trailer's /Prev is the previous one. Every byte before it is kept.
 */
export async function appendDss(pdf: Buffer, data: ValidationData): Promise<Buffer> {
  const trailer = readLastTrailer(pdf);
  const catalog = catalogDictionary(pdf, trailer) ?? (await catalogWithPdfLib(pdf));
  let next = trailer.size;
  const objects: { num: number; gen: number; body: Buffer }[] = [];
  const stream = (der: Buffer) => {
    const compressed = deflateSync(der);
    const num = next++;
    objects.push({ num, gen: 0, body: Buffer.concat([Buffer.from(`<< /Length ${compressed.length} /Filter /FlateDecode >>\nstream\n`, "latin1"), compressed, Buffer.from("\nendstream", "latin1")]) });
    return `${num} 0 R`;
  };
  const refs = (list: Buffer[]) => `[${list.map(stream).join(" ")}]`;
  const parts = [`/Type /DSS`, `/Certs ${refs(data.certs)}`];
  if (data.ocsps.length > 0) parts.push(`/OCSPs ${refs(data.ocsps)}`);
  if (data.crls.length > 0) parts.push(`/CRLs ${refs(data.crls)}`);
  const dssNum = next++;
  objects.push({ num: dssNum, gen: 0, body: Buffer.from(`<< ${parts.join(" ")} >>`, "latin1") });
  const withoutDss = catalog.replace(/\/DSS\s+\d+\s+\d+\s+R/g, "");
  const newCatalog = `${withoutDss.slice(0, withoutDss.lastIndexOf(">>"))} /DSS ${dssNum} 0 R >>`;
  objects.push({ num: trailer.root.num, gen: trailer.root.gen, body: Buffer.from(newCatalog, "latin1") });

  const chunks: Buffer[] = [pdf];
  let offset = pdf.length;
  const push = (b: Buffer) => {
    chunks.push(b);
    offset += b.length;
  };
  if (pdf[pdf.length - 1] !== 0x0a) push(Buffer.from("\n", "latin1"));
  const offsets = new Map<number, { at: number; gen: number }>();
  for (const object of objects) {
    offsets.set(object.num, { at: offset, gen: object.gen });
    push(Buffer.concat([Buffer.from(`${object.num} ${object.gen} obj\n`, "latin1"), object.body, Buffer.from("\nendobj\n", "latin1")]));
  }
  const xrefAt = offset;
  const numbers = [...offsets.keys()].sort((x, y) => x - y);
  let xref = "xref\n";
  for (let i = 0; i < numbers.length; ) {
    let j = i;
    while (j + 1 < numbers.length && numbers[j + 1] === numbers[j]! + 1) j++;
    xref += `${numbers[i]} ${j - i + 1}\n`;
    for (let k = i; k <= j; k++) {
      const entry = offsets.get(numbers[k]!)!;
      xref += `${String(entry.at).padStart(10, "0")} ${String(entry.gen).padStart(5, "0")} n \n`;
    }
    i = j + 1;
  }
  const trailerEntries = [`/Size ${next}`, `/Root ${trailer.root.num} ${trailer.root.gen} R`, ...(trailer.info ? [`/Info ${trailer.info}`] : []), ...(trailer.id ? [`/ID ${trailer.id}`] : []), `/Prev ${trailer.startxref}`];
  push(Buffer.from(`${xref}trailer\n<< ${trailerEntries.join(" ")} >>\nstartxref\n${xrefAt}\n%%EOF\n`, "latin1"));
  return Buffer.concat(chunks);
}

/** The last revision's trailer: from a classic `trailer` dictionary or a cross-reference stream's dictionary. */
function readLastTrailer(pdf: Buffer): Trailer {
  const tail = pdf.subarray(Math.max(0, pdf.length - 2048)).toString("latin1");
  const match = [...tail.matchAll(/startxref\s+(\d+)/g)].at(-1);
  if (!match) throw new Error("PDF: no startxref");
  const startxref = Number(match[1]);
  const at = pdf.subarray(startxref, startxref + 4).toString("latin1");
  let dictionary: string;
  if (at === "xref") {
    const trailerAt = pdf.indexOf("trailer", startxref, "latin1");
    if (trailerAt < 0) throw new Error("PDF: no trailer");
    dictionary = balancedDictionary(pdf, pdf.indexOf("<<", trailerAt, "latin1"));
  } else {
    dictionary = balancedDictionary(pdf, pdf.indexOf("<<", startxref, "latin1"));
  }
  const size = /\/Size\s+(\d+)/.exec(dictionary);
  const root = /\/Root\s+(\d+)\s+(\d+)\s+R/.exec(dictionary);
  if (!size || !root) throw new Error("PDF: the trailer has no /Size or /Root");
  const info = /\/Info\s+(\d+\s+\d+\s+R)/.exec(dictionary)?.[1] ?? null;
  const idStart = dictionary.indexOf("/ID");
  const id = idStart >= 0 ? dictionary.slice(dictionary.indexOf("[", idStart), dictionary.indexOf("]", idStart) + 1) : null;
  return { size: Number(size[1]), root: { num: Number(root[1]), gen: Number(root[2]) }, info, id, startxref };
}

/** The dictionary `<< … >>` starting at `start`, nested dictionaries, strings and hex strings skipped as such. */
function balancedDictionary(pdf: Buffer, start: number): string {
  if (start < 0) throw new Error("PDF: no dictionary");
  let depth = 0;
  for (let i = start; i < pdf.length; i++) {
    const ch = pdf[i]!;
    if (ch === 0x28) {
      // ( literal string ), with nesting and backslash escapes
      let parens = 1;
      for (i++; i < pdf.length && parens > 0; i++) {
        if (pdf[i] === 0x5c) i++;
        else if (pdf[i] === 0x28) parens++;
        else if (pdf[i] === 0x29) parens--;
      }
      i--;
    } else if (ch === 0x3c && pdf[i + 1] === 0x3c) {
      depth++;
      i++;
    } else if (ch === 0x3c) {
      i = pdf.indexOf(0x3e, i);
    } else if (ch === 0x3e && pdf[i + 1] === 0x3e) {
      depth--;
      i++;
      if (depth === 0) return pdf.subarray(start, i + 1).toString("latin1");
    }
  }
  throw new Error("PDF: unterminated dictionary");
}

/** The catalog's dictionary as the file spells it, when it is a plain object (its last definition wins). */
function catalogDictionary(pdf: Buffer, trailer: Trailer): string | null {
  const text = pdf.toString("latin1");
  const header = new RegExp(`(?:^|[\\s>])${trailer.root.num}\\s+${trailer.root.gen}\\s+obj\\s*<<`, "g");
  const last = [...text.matchAll(header)].at(-1);
  if (!last) return null;
  const dictionary = balancedDictionary(pdf, last.index + last[0].length - 2);
  return /\/Type\s*\/Catalog/.test(dictionary) ? dictionary : null;
}

/** A catalog inside an object stream: read with pdf-lib, written back as a dictionary. */
async function catalogWithPdfLib(pdf: Buffer): Promise<string> {
  const document = await PDFDocument.load(pdf, { updateMetadata: false, ignoreEncryption: true });
  return document.catalog.toString();
}
