import { createHash, sign } from "node:crypto";
import forge from "node-forge";
import type { SealingIdentity } from "./load-sealing-identity";
import { OID_TIMESTAMP_TOKEN_ATTRIBUTE } from "./timestamp-token";

const { asn1 } = forge;
const U = asn1.Class.UNIVERSAL;
const T = asn1.Type;

const OID = {
  signedData: "1.2.840.113549.1.7.2",
  data: "1.2.840.113549.1.7.1",
  sha256: "2.16.840.1.101.3.4.2.1",
  rsaEncryption: "1.2.840.113549.1.1.1",
  contentType: "1.2.840.113549.1.9.3",
  messageDigest: "1.2.840.113549.1.9.4",
  signingCertificateV2: "1.2.840.113549.1.9.16.2.47",
  timeStampToken: OID_TIMESTAMP_TOKEN_ATTRIBUTE,
};

const oid = (value: string) => asn1.create(U, T.OID, false, asn1.oidToDer(value).getBytes());
const seq = (items: forge.asn1.Asn1[]) => asn1.create(U, T.SEQUENCE, true, items);
const set = (items: forge.asn1.Asn1[]) => asn1.create(U, T.SET, true, items);
const octets = (bytes: Buffer) => asn1.create(U, T.OCTETSTRING, false, bytes.toString("binary"));
const integer = (value: number) => asn1.create(U, T.INTEGER, false, asn1.integerToDer(value).getBytes());
const nullValue = () => asn1.create(U, T.NULL, false, "");
const der = (node: forge.asn1.Asn1) => Buffer.from(asn1.toDer(node).getBytes(), "binary");
const fromDer = (bytes: Buffer) => asn1.fromDer(forge.util.createBuffer(bytes.toString("binary")));
const attribute = (type: string, value: forge.asn1.Asn1) => seq([oid(type), set([value])]);

/**
 * A detached CMS SignedData (RFC 5652) over content whose SHA-256 is `contentDigest` (the caller
 * hashes the signed byte ranges as it reads them, so a large file is never gathered into one buffer), in the PAdES baseline B-B profile (ETSI EN
 * 319 142-1): SHA-256, signed attributes content-type, message-digest and ESS signing-certificate-v2
 * (which binds the signer certificate), and no signing-time attribute (PAdES takes the time from the
 * signature dictionary's /M). node-forge's PKCS#7 writer cannot emit signing-certificate-v2, so the
 * structure is built here with its ASN.1 module and signed with Node's crypto.
 *
 * With `timestamp`, the signature value is time-stamped (RFC 3161) and the token is added as the
 * unsigned attribute id-aa-timeStampToken (RFC 3161 appendix A; ETSI EN 319 122-1 § 5.3, the
 * signature-time-stamp): PAdES baseline B-T. The token covers the signature value, so it proves the
 * signature existed at the authority's time.
 */
export async function createCmsSignature(
  identity: SealingIdentity,
  contentDigest: Buffer,
  options: { timestamp?: (signatureValue: Buffer) => Promise<Buffer> } = {},
): Promise<Buffer> {
  const attributes = [
    attribute(OID.contentType, oid(OID.data)),
    attribute(OID.messageDigest, octets(contentDigest)),
    attribute(
      OID.signingCertificateV2,
      // SigningCertificateV2 ::= SEQUENCE { certs SEQUENCE OF ESSCertIDv2 }; ESSCertIDv2 with the default hash (SHA-256).
      seq([seq([seq([octets(createHash("sha256").update(identity.certificateDer).digest())])])]),
    ),
  ];
  // DER orders a SET OF by its members' encodings; the signature covers the SET form.
  const sortedAttributes = attributes.map(der).sort(Buffer.compare).map(fromDer);
  const signedAttributesDer = der(set(sortedAttributes));
  const signature = sign("sha256", signedAttributesDer, identity.privateKey);

  const certificateAsn1 = fromDer(identity.certificateDer);
  const issuerAndSerial = seq([
    forge.pki.distinguishedNameToAsn1(identity.certificate.issuer),
    asn1.create(U, T.INTEGER, false, forge.util.hexToBytes(identity.certificate.serialNumber)),
  ]);
  const signerInfo = seq([
    integer(1),
    issuerAndSerial,
    seq([oid(OID.sha256), nullValue()]),
    asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, true, sortedAttributes),
    seq([oid(OID.rsaEncryption), nullValue()]),
    octets(signature),
    ...(options.timestamp ? [asn1.create(asn1.Class.CONTEXT_SPECIFIC, 1, true, [attribute(OID.timeStampToken, fromDer(await options.timestamp(signature)))])] : []),
  ]);
  const signedData = seq([
    integer(1),
    set([seq([oid(OID.sha256), nullValue()])]),
    seq([oid(OID.data)]),
    asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, true, [certificateAsn1, ...identity.chainDer.map(fromDer)]),
    set([signerInfo]),
  ]);
  return der(seq([oid(OID.signedData), asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, true, [signedData])]));
}
