import { createHash, type Hash } from "node:crypto";
import { pdflibAddPlaceholder } from "@signpdf/placeholder-pdf-lib";
import { SUBFILTER_ETSI_CADES_DETACHED } from "@signpdf/utils";
import { createCmsSignature } from "./create-cms-signature";
import { serializeIncrementalUpdate, type IncrementalPdf } from "./incremental-pdf";
import type { SealingIdentity } from "./load-sealing-identity";

/** Room for a time-stamp token in the /Contents placeholder: the TSTInfo, the authority's signature and its certificate chain. */
export const TIMESTAMP_TOKEN_ROOM_BYTES = 16_000;

export type SignSealedPdfOptions = {
  identity: SealingIdentity;
  reason: string;
  location: string;
  contactInfo: string;
  signingTime: Date;
  /**
   * Time-stamps the signature value (PAdES-B-T): returns the RFC 3161 token to embed. Its errors
   * propagate: a seal that must be time-stamped is not made without the token.
   */
  timestamp?: (signatureValue: Buffer) => Promise<Buffer>;
};

/**
 * A sealed PDF: `base` (the original bytes, untouched) followed by `update` (the revision holding
 * what sealing drew, the signature dictionary and its CMS). Stored as is, never joined in memory.
 */
export type SealedPdf = { base: Uint8Array; update: Uint8Array; sizeBytes: number; sha256: string };

/**
 * Adds an invisible PAdES signature (ETSI.CAdES.detached) to a document opened with
 * `openIncrementalPdf` and changed since, as an incremental update: the placeholder signature
 * dictionary and widget (@signpdf's pdf-lib placeholder) go into the new revision with everything
 * else pdf-lib changed, the /ByteRange is written in place, the signed ranges (the base, then the
 * update around /Contents) are hashed where they lie, and the CMS is written into /Contents. The
 * file's own SHA-256 is computed in the same pass. Nothing may touch the bytes after this.
 */
export async function signSealedPdf(pdf: IncrementalPdf, options: SignSealedPdfOptions): Promise<SealedPdf> {
  pdflibAddPlaceholder({
    pdfDoc: pdf.pdfDoc,
    reason: options.reason,
    location: options.location,
    contactInfo: options.contactInfo,
    name: options.identity.commonName,
    signingTime: options.signingTime,
    subFilter: SUBFILTER_ETSI_CADES_DETACHED,
    signatureLength: 12_000 + options.identity.chainDer.reduce((n, c) => n + c.length * 2, 0) + (options.timestamp ? TIMESTAMP_TOKEN_ROOM_BYTES : 0),
    appName: "Closing & Signing",
  });
  const { base } = pdf;
  const update = await serializeIncrementalUpdate(pdf);
  const text = Buffer.from(update.buffer, update.byteOffset, update.byteLength).toString("latin1");
  const placeholder = /\/ByteRange\s*\[\s*0\s+\/\*+\s+\/\*+\s+\/\*+\s*\]/g;
  const matches = [...text.matchAll(placeholder)];
  if (matches.length !== 1) throw new Error(`The seal's update holds ${matches.length} ByteRange placeholders, not one.`);
  const byteRangeAt = matches[0]!.index!;
  const byteRangeText = matches[0]![0];
  const contentsTag = text.indexOf("/Contents ", byteRangeAt + byteRangeText.length);
  const open = text.indexOf("<", contentsTag);
  const close = text.indexOf(">", open);
  if (contentsTag < 0 || open < 0 || close < 0) throw new Error("The seal's signature dictionary has no /Contents placeholder.");

  const total = base.byteLength + update.byteLength;
  const byteRange = [0, base.byteLength + open, base.byteLength + close + 1, total - (base.byteLength + close + 1)];
  const written = `/ByteRange [${byteRange.join(" ")}]`;
  if (written.length > byteRangeText.length) throw new Error("The seal's ByteRange does not fit its placeholder.");
  Buffer.from(update.buffer, update.byteOffset, update.byteLength).write(written.padEnd(byteRangeText.length, " "), byteRangeAt, "latin1");

  const signed = createHash("sha256").update(base);
  const whole: Hash = signed.copy();
  signed.update(update.subarray(0, open));
  signed.update(update.subarray(close + 1));
  const cms = await createCmsSignature(options.identity, signed.digest(), { timestamp: options.timestamp });
  const room = (close - open - 1) / 2;
  if (cms.byteLength > room) throw new Error(`The seal's signature (${cms.byteLength} bytes) exceeds its placeholder (${room} bytes).`);
  Buffer.from(update.buffer, update.byteOffset, update.byteLength).write(cms.toString("hex").padEnd(close - open - 1, "0"), open + 1, "latin1");

  whole.update(update);
  return { base, update, sizeBytes: total, sha256: whole.digest("hex") };
}
