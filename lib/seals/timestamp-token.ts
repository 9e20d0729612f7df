import { createHash, randomBytes, verify, X509Certificate } from "node:crypto";
import forge from "node-forge";

const { asn1 } = forge;
const U = asn1.Class.UNIVERSAL;
const C = asn1.Class.CONTEXT_SPECIFIC;
const T = asn1.Type;

export const OID_TIMESTAMP_TOKEN_ATTRIBUTE = "1.2.840.113549.1.9.16.2.14";
const OID_TST_INFO = "1.2.840.113549.1.9.16.1.4";
const OID_MESSAGE_DIGEST = "1.2.840.113549.1.9.4";
const HASHES: Record<string, string> = {
  "1.3.14.3.2.26": "sha1",
  "2.16.840.1.101.3.4.2.1": "sha256",
  "2.16.840.1.101.3.4.2.2": "sha384",
  "2.16.840.1.101.3.4.2.3": "sha512",
};
const SHA256 = "2.16.840.1.101.3.4.2.1";

type Node = forge.asn1.Asn1;
const children = (node: Node | undefined): Node[] => (Array.isArray(node?.value) ? (node.value as Node[]) : []);
const bytesOf = (node: Node | undefined): Buffer => Buffer.from(typeof node?.value === "string" ? node.value : "", "binary");
const oidOf = (node: Node | undefined): string => asn1.derToOid(typeof node?.value === "string" ? node.value : "");
const der = (node: Node) => Buffer.from(asn1.toDer(node).getBytes(), "binary");
export const parseDer = (bytes: Buffer): Node => asn1.fromDer(forge.util.createBuffer(bytes.toString("binary")));

/** A TimeStampReq (RFC 3161 § 2.4.1) for the SHA-256 of `data`, with a random nonce, asking for the TSA's certificate. */
export function buildTimestampQuery(data: Buffer): { query: Buffer; nonce: Buffer } {
  // A positive INTEGER: the first byte's top bit is clear.
  const nonce = randomBytes(16);
  nonce[0] = nonce[0]! & 0x7f | 0x01;
  const query = der(
    asn1.create(U, T.SEQUENCE, true, [
      asn1.create(U, T.INTEGER, false, asn1.integerToDer(1).getBytes()),
      asn1.create(U, T.SEQUENCE, true, [
        asn1.create(U, T.SEQUENCE, true, [asn1.create(U, T.OID, false, asn1.oidToDer(SHA256).getBytes()), asn1.create(U, T.NULL, false, "")]),
        asn1.create(U, T.OCTETSTRING, false, createHash("sha256").update(data).digest().toString("binary")),
      ]),
      asn1.create(U, T.INTEGER, false, nonce.toString("binary")),
      asn1.create(U, T.BOOLEAN, false, String.fromCharCode(0xff)),
    ]),
  );
  return { query, nonce };
}

const PKI_STATUS = ["granted", "grantedWithMods", "rejection", "waiting", "revocationWarning", "revocationNotification"];

/** The TimeStampToken of a TimeStampResp (RFC 3161 § 2.4.2); throws with the authority's status when it granted none. */
export function tokenOfTimestampReply(reply: Buffer): Buffer {
  const [statusInfo, token] = children(parseDer(reply));
  const [status, freeText] = children(statusInfo);
  const code = bytesOf(status).length === 1 ? bytesOf(status)[0]! : -1;
  if ((code !== 0 && code !== 1) || !token) {
    const text = children(freeText)
      .map((n) => (typeof n.value === "string" ? forge.util.decodeUtf8(n.value) : ""))
      .join(" ");
    throw new Error(`the time-stamp authority answered ${PKI_STATUS[code] ?? `status ${code}`}${text ? ` (${text.slice(0, 200)})` : ""}`);
  }
  return der(token);
}

export type TimestampTokenInfo = {
  /** The authority's time (TSTInfo genTime). */
  genTime: Date;
  /** Node's name of the imprint's hash ("sha256", …) and the hash itself. */
  imprintHash: string;
  imprint: Buffer;
  /** The nonce as DER INTEGER content bytes, null when the token has none. */
  nonce: Buffer | null;
  /** The token's own CMS signature checks out: the TSTInfo's digest and the signature over the signed attributes, by a certificate the token carries. */
  signatureValid: boolean;
  /** The certificate whose key made that signature (DER), when one did. */
  signerCertificateDer: Buffer | null;
};

/** Reads a TimeStampToken (a CMS SignedData over a TSTInfo, RFC 3161 § 2.4.2) and checks its signature. */
export function readTimestampToken(token: Buffer | Node): TimestampTokenInfo {
  const contentInfo = Buffer.isBuffer(token) ? parseDer(token) : token;
  const signedData = children(children(contentInfo)[1])[0];
  const parts = children(signedData);
  const encapsulated = parts[2];
  if (oidOf(children(encapsulated)[0]) !== OID_TST_INFO) throw new Error("not a time-stamp token");
  const eContent = bytesOf(children(children(encapsulated)[1])[0]);
  const tstInfo = children(parseDer(eContent));
  const imprint = children(tstInfo[2]);
  const imprintHash = HASHES[oidOf(children(imprint[0])[0])];
  const genTimeNode = tstInfo[4];
  if (!imprintHash || genTimeNode?.type !== T.GENERALIZEDTIME) throw new Error("unreadable time-stamp token");
  const genTime = asn1.generalizedTimeToDate(genTimeNode.value as string);
  const nonceNode = tstInfo.slice(5).find((n) => n.tagClass === U && n.type === T.INTEGER);

  const certificates = parts.find((p) => p.tagClass === C && p.type === 0);
  const signerInfo = children(children(parts.at(-1))[0]);
  const signerHash = HASHES[oidOf(children(signerInfo[2])[0])];
  const signedAttributes = signerInfo.find((p) => p.tagClass === C && p.type === 0);
  const signature = bytesOf(signerInfo.find((p, i) => i > 3 && p.tagClass === U && p.type === T.OCTETSTRING));
  let signerCertificateDer: Buffer | null = null;
  if (signerHash && signedAttributes) {
    const digest = children(signedAttributes)
      .filter((a) => oidOf(children(a)[0]) === OID_MESSAGE_DIGEST)
      .map((a) => bytesOf(children(children(a)[1])[0]))[0];
    const digestMatches = digest !== undefined && createHash(signerHash).update(eContent).digest().equals(digest);
    const attributesDer = der(asn1.create(U, T.SET, true, children(signedAttributes)));
    if (digestMatches) {
      for (const certificate of children(certificates)) {
        const certificateDer = der(certificate);
        try {
          if (verify(signerHash, attributesDer, new X509Certificate(certificateDer).publicKey, signature)) {
            signerCertificateDer = certificateDer;
            break;
          }
        } catch {
          // Not a key this signature was made with.
        }
      }
    }
  }
  return {
    genTime,
    imprintHash,
    imprint: bytesOf(imprint[1]),
    nonce: nonceNode ? bytesOf(nonceNode) : null,
    signatureValid: signerCertificateDer !== null,
    signerCertificateDer,
  };
}

/** Whether a token stamps exactly `data` (its imprint is the hash of it) and is signed intact. */
export function tokenStamps(info: TimestampTokenInfo, data: Buffer): boolean {
  return info.signatureValid && createHash(info.imprintHash).update(data).digest().equals(info.imprint);
}
