import { createHash, createPublicKey, verify } from "node:crypto";
import forge from "node-forge";
import { OID_TIMESTAMP_TOKEN_ATTRIBUTE, readTimestampToken, tokenStamps } from "./timestamp-token";

export type EmbeddedSeal = {
  /** SHA-256 of the signer certificate in the signature (DER). */
  certificateSha256: string;
  /** The digest and the signature over the signed attributes both check out. */
  intact: boolean;
  /** The signed byte ranges cover the whole file (nothing was appended after signing). */
  coversWholeFile: boolean;
  /**
   * The signature-time-stamp (PAdES-B-T), when the signature carries one: the authority's time, and
   * whether the token is intact and stamps this signature's value.
   */
  timestamp: { genTime: Date; valid: boolean } | null;
};

const MESSAGE_DIGEST = "1.2.840.113549.1.9.4";

/**
 * Reads the last PDF signature of a file (its /ByteRange and /Contents) and checks it the way a PDF
 * reader does: the SHA-256 of the signed ranges against the CMS message digest, and the RSA signature
 * over the signed attributes against the certificate inside. Null when the file has no readable
 * signature. It only reads what the file holds; whether the certificate is ours is the caller's call.
 */
export function readEmbeddedSeal(bytes: Uint8Array): EmbeddedSeal | null {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const text = buffer.toString("latin1");
  const ranges = [...text.matchAll(/\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g)];
  const last = ranges.at(-1);
  if (!last) return null;
  const [a, b, c, d] = last.slice(1, 5).map(Number) as [number, number, number, number];
  if (a !== 0 || b <= 0 || c <= b || d < 0 || c + d > buffer.length || buffer[b] !== 0x3c || buffer[c - 1] !== 0x3e) return null;
  const hex = text.slice(b + 1, c - 1).replace(/\s+/g, "");
  if (!/^[0-9a-fA-F]*$/.test(hex) || hex.length % 2 !== 0) return null;
  try {
    const asn = forge.asn1.fromDer(forge.util.createBuffer(trimDer(Buffer.from(hex, "hex")).toString("binary")));
    const signedData = (asn.value as forge.asn1.Asn1[])[1]!.value[0] as forge.asn1.Asn1;
    const parts = signedData.value as forge.asn1.Asn1[];
    const certificates = parts.find((p) => p.tagClass === forge.asn1.Class.CONTEXT_SPECIFIC && p.type === 0);
    const signerInfos = parts.at(-1)!.value as forge.asn1.Asn1[];
    const signerInfo = signerInfos[0]!.value as forge.asn1.Asn1[];
    const attributes = signerInfo.find((p) => p.tagClass === forge.asn1.Class.CONTEXT_SPECIFIC && p.type === 0);
    // SignerInfo: version, sid, digestAlgorithm, [0] signedAttrs, signatureAlgorithm, signature, [1] unsignedAttrs.
    const signatureNode = signerInfo.find((p, i) => i > 3 && p.tagClass === forge.asn1.Class.UNIVERSAL && p.type === forge.asn1.Type.OCTETSTRING);
    const unsignedAttributes = signerInfo.find((p) => p.tagClass === forge.asn1.Class.CONTEXT_SPECIFIC && p.type === 1);
    if (!signatureNode) return null;
    const signature = Buffer.from(signatureNode.value as string, "binary");
    if (!certificates || !attributes) return null;
    const certificateDer = Buffer.from(forge.asn1.toDer((certificates.value as forge.asn1.Asn1[])[0]!).getBytes(), "binary");

    let messageDigest: Buffer | null = null;
    for (const attribute of attributes.value as forge.asn1.Asn1[]) {
      const [type, values] = attribute.value as forge.asn1.Asn1[];
      if (forge.asn1.derToOid(type!.value as string) === MESSAGE_DIGEST) {
        messageDigest = Buffer.from((values!.value as forge.asn1.Asn1[])[0]!.value as string, "binary");
      }
    }
    const content = Buffer.concat([buffer.subarray(a, a + b), buffer.subarray(c, c + d)]);
    const digestMatches = messageDigest !== null && createHash("sha256").update(content).digest().equals(messageDigest);
    // The signature covers the signed attributes DER-encoded as a SET (tag 0x31), not as the [0] they are stored under.
    const signedAttributes = Buffer.from(forge.asn1.toDer(forge.asn1.create(forge.asn1.Class.UNIVERSAL, forge.asn1.Type.SET, true, attributes.value as forge.asn1.Asn1[])).getBytes(), "binary");
    const signatureMatches = verifySignature(signedAttributes, signature, certificateDer);
    return {
      certificateSha256: createHash("sha256").update(certificateDer).digest("hex"),
      intact: digestMatches && signatureMatches,
      coversWholeFile: c + d === buffer.length,
      timestamp: readSignatureTimestamp(unsignedAttributes, signature),
    };
  } catch {
    return null;
  }
}

function readSignatureTimestamp(unsignedAttributes: forge.asn1.Asn1 | undefined, signature: Buffer): EmbeddedSeal["timestamp"] {
  for (const attribute of (unsignedAttributes?.value as forge.asn1.Asn1[] | undefined) ?? []) {
    const [type, values] = attribute.value as forge.asn1.Asn1[];
    if (forge.asn1.derToOid(type!.value as string) !== OID_TIMESTAMP_TOKEN_ATTRIBUTE) continue;
    try {
      const info = readTimestampToken((values!.value as forge.asn1.Asn1[])[0]!);
      return { genTime: info.genTime, valid: tokenStamps(info, signature) };
    } catch {
      return null;
    }
  }
  return null;
}

function verifySignature(data: Buffer, signature: Buffer, certificateDer: Buffer): boolean {
  try {
    const certificate = forge.pki.certificateFromAsn1(forge.asn1.fromDer(forge.util.createBuffer(certificateDer.toString("binary"))));
    const pem = forge.pki.publicKeyToPem(certificate.publicKey);
    return verify("sha256", data, createPublicKey(pem), signature);
  } catch {
    return false;
  }
}

/** The placeholder is zero-padded after the CMS; keep the one DER element at its start. */
function trimDer(bytes: Buffer): Buffer {
  if (bytes.length < 2) return bytes;
  const first = bytes[1]!;
  if (first < 0x80) return bytes.subarray(0, 2 + first);
  const n = first & 0x7f;
  let length = 0;
  for (let i = 0; i < n; i++) length = length * 256 + bytes[2 + i]!;
  return bytes.subarray(0, 2 + n + length);
}
