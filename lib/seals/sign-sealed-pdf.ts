import { pdflibAddPlaceholder } from "@signpdf/placeholder-pdf-lib";
import { SignPdf } from "@signpdf/signpdf";
import { Signer, SUBFILTER_ETSI_CADES_DETACHED } from "@signpdf/utils";
import type { PDFDocument } from "pdf-lib";
import { createCmsSignature } from "./create-cms-signature";
import type { SealingIdentity } from "./load-sealing-identity";

class CmsSigner extends Signer {
  constructor(
    private readonly identity: SealingIdentity,
    private readonly timestamp?: (signatureValue: Buffer) => Promise<Buffer>,
  ) {
    super();
  }

  override async sign(content: Buffer): Promise<Buffer> {
    return createCmsSignature(this.identity, content, { timestamp: this.timestamp });
  }
}

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
 * Adds an invisible PAdES signature (ETSI.CAdES.detached) to a finished pdf-lib document and
 * returns the signed bytes. The document is saved without object streams: @signpdf finds the
 * ByteRange placeholder by scanning the file, which object streams would compress away
 * (vbuch/node-signpdf#199). Nothing may touch the bytes after this.
 */
export async function signSealedPdf(pdfDoc: PDFDocument, options: SignSealedPdfOptions): Promise<Buffer> {
  pdflibAddPlaceholder({
    pdfDoc,
    reason: options.reason,
    location: options.location,
    contactInfo: options.contactInfo,
    name: options.identity.commonName,
    signingTime: options.signingTime,
    subFilter: SUBFILTER_ETSI_CADES_DETACHED,
    signatureLength: 12_000 + options.identity.chainDer.reduce((n, c) => n + c.length * 2, 0) + (options.timestamp ? TIMESTAMP_TOKEN_ROOM_BYTES : 0),
    appName: "Closing & Signing",
  });
  const unsigned = Buffer.from(await pdfDoc.save({ useObjectStreams: false }));
  return new SignPdf().sign(unsigned, new CmsSigner(options.identity, options.timestamp), options.signingTime);
}
