import { createHash, verify, X509Certificate, type KeyObject } from "node:crypto";
import { childrenOf, contentOf, encodedOf, INTEGER, NULL_DER, OCTET_STRING, oidDer, oidText, readDer, SEQUENCE, tlv, type DerNode } from "./der";

export const REVOCATION_UNAVAILABLE = "RevocationUnavailableError";
const TIMEOUT_MS = 20_000;
const MAX_REPLY_BYTES = 4 * 1024 * 1024;

/**
 * A revocation service a certificate names (its OCSP responder or its CRL distribution point) could
 * not give usable revocation data: unreachable, an HTTP error, or an answer that does not check out.
 * Like a time-stamp authority that is down, it delays the seal (`seal-package-job.ts`), never drops it.
 */
export class RevocationUnavailableError extends Error {
  override name = REVOCATION_UNAVAILABLE;
}

/** A certificate in the seal is revoked (by its OCSP responder or its CRL): sealing with it must stop. */
export class CertificateRevokedError extends Error {
  override name = "CertificateRevokedError";
}

const OID = {
  authorityInfoAccess: "1.3.6.1.5.5.7.1.1",
  ocsp: "1.3.6.1.5.5.7.48.1",
  caIssuers: "1.3.6.1.5.5.7.48.2",
  crlDistributionPoints: "2.5.29.31",
  basicOcspResponse: "1.3.6.1.5.5.7.48.1.1",
  sha1: "1.3.14.3.2.26",
};
const SIGNATURE_HASHES: Record<string, string> = {
  "1.2.840.113549.1.1.5": "sha1",
  "1.2.840.113549.1.1.11": "sha256",
  "1.2.840.113549.1.1.12": "sha384",
  "1.2.840.113549.1.1.13": "sha512",
  "1.2.840.10045.4.3.2": "sha256",
  "1.2.840.10045.4.3.3": "sha384",
  "1.2.840.10045.4.3.4": "sha512",
};

/** What a certificate says about where its revocation status is published. */
export type RevocationServices = { ocsp: string[]; crl: string[]; caIssuers: string[] };

type Parsed = { der: Buffer; x509: X509Certificate; tbs: DerNode[]; serial: Buffer };

function parseCertificate(der: Buffer): Parsed {
  const root = readDer(der);
  const tbs = childrenOf(childrenOf(root)[0]!);
  const fields = tbs[0]?.tag === 0xa0 ? tbs.slice(1) : tbs;
  return { der, x509: new X509Certificate(der), tbs: fields, serial: contentOf(fields[0]!) };
}

const isHttp = (url: string) => /^https?:\/\//i.test(url);

/** The OCSP responders and CA-issuer URLs (Authority Information Access) and CRL distribution points of a certificate; http(s) only. */
export function revocationServicesOf(certificateDer: Buffer): RevocationServices {
  const { tbs } = parseCertificate(certificateDer);
  const services: RevocationServices = { ocsp: [], crl: [], caIssuers: [] };
  const extensions = tbs.find((n) => n.tag === 0xa3);
  if (!extensions) return services;
  for (const extension of childrenOf(childrenOf(extensions)[0]!)) {
    const parts = childrenOf(extension);
    const id = oidText(parts[0]!);
    const value = readDer(contentOf(parts.at(-1)!));
    if (id === OID.authorityInfoAccess) {
      for (const access of childrenOf(value)) {
        const [method, location] = childrenOf(access);
        // uniformResourceIdentifier [6] IMPLICIT IA5String
        if (location?.tag !== 0x86) continue;
        const url = contentOf(location).toString("latin1");
        if (!isHttp(url)) continue;
        if (oidText(method!) === OID.ocsp) services.ocsp.push(url);
        if (oidText(method!) === OID.caIssuers) services.caIssuers.push(url);
      }
    }
    if (id === OID.crlDistributionPoints) {
      for (const point of childrenOf(value)) {
        // DistributionPoint { distributionPoint [0] { fullName [0] GeneralNames } }
        const name = childrenOf(point).find((n) => n.tag === 0xa0);
        const fullName = name ? childrenOf(name).find((n) => n.tag === 0xa0) : undefined;
        for (const general of fullName ? childrenOf(fullName) : []) {
          const url = general.tag === 0x86 ? contentOf(general).toString("latin1") : "";
          if (isHttp(url)) services.crl.push(url);
        }
      }
    }
  }
  return services;
}

/** The chain, revocation answers and CRLs a validator needs offline (the DSS dictionary's /Certs, /OCSPs, /CRLs). */
export type ValidationData = { certs: Buffer[]; ocsps: Buffer[]; crls: Buffer[] };

/** Revocation answers fetched during one seal, by URL and certificate, so the files of a package ask once. */
export type RevocationCache = Map<string, Promise<{ kind: "ocsp" | "crl"; der: Buffer; extraCerts: Buffer[] }>>;

/**
 * For every certificate given (the seal's signer and chain, the time-stamp authority's) that names a
 * revocation service, fetches its current status (OCSP first, then the CRL) and checks it: signed by
 * the certificate's issuer (or, for OCSP, a responder the issuer certified) and not revoked. Issuers
 * missing from `certificates` are fetched from the certificate's CA-issuers URL. Certificates naming
 * no service (roots, the development certificate) contribute only themselves.
 *
 * Throws `RevocationUnavailableError` when a named service gives nothing usable, and
 * `CertificateRevokedError` when a certificate is revoked.
 */
export async function collectValidationData(certificates: Buffer[], cache: RevocationCache = new Map()): Promise<ValidationData> {
  const pool = uniqueDer(certificates).map(parseCertificate);
  const data: ValidationData = { certs: [], ocsps: [], crls: [] };
  for (let i = 0; i < pool.length; i++) {
    const certificate = pool[i]!;
    if (certificate.x509.checkIssued(certificate.x509) && verifiesWith(certificate.x509, certificate.x509.publicKey)) continue;
    const services = revocationServicesOf(certificate.der);
    if (services.ocsp.length === 0 && services.crl.length === 0) continue;
    let issuer = pool.find((c) => c !== certificate && certificate.x509.checkIssued(c.x509) && verifiesWith(certificate.x509, c.x509.publicKey));
    if (!issuer) {
      issuer = await fetchIssuer(certificate, services.caIssuers);
      pool.push(issuer);
    }
    const answer = await revocationOf(certificate, issuer, services, cache);
    (answer.kind === "ocsp" ? data.ocsps : data.crls).push(answer.der);
    for (const extra of answer.extraCerts) if (!pool.some((c) => c.der.equals(extra))) pool.push(parseCertificate(extra));
  }
  data.certs = pool.map((c) => c.der);
  data.ocsps = uniqueDer(data.ocsps);
  data.crls = uniqueDer(data.crls);
  return data;
}

function uniqueDer(list: Buffer[]): Buffer[] {
  return list.filter((der, i) => list.findIndex((other) => other.equals(der)) === i);
}

function verifiesWith(certificate: X509Certificate, key: KeyObject): boolean {
  try {
    return certificate.verify(key);
  } catch {
    return false;
  }
}

function describe(certificate: Parsed): string {
  const cn = /CN=([^\n,]+)/.exec(certificate.x509.subject)?.[1] ?? certificate.x509.subject.split("\n")[0];
  return `"${cn}"`;
}

async function fetchIssuer(certificate: Parsed, urls: string[]): Promise<Parsed> {
  for (const url of urls) {
    try {
      const body = await httpGet(url, "application/pkix-cert");
      const der = body.subarray(0, 11).toString("latin1").startsWith("-----BEGIN") ? pemToDer(body.toString("latin1")) : body;
      const issuer = parseCertificate(der);
      if (certificate.x509.checkIssued(issuer.x509) && verifiesWith(certificate.x509, issuer.x509.publicKey)) return issuer;
    } catch {
      // Try the next one.
    }
  }
  throw new RevocationUnavailableError(
    `the issuer of ${describe(certificate)} is needed to check its revocation and is neither in the chain nor at a CA-issuers URL it names (put the chain in SEALING_P12)`,
  );
}

function pemToDer(pem: string): Buffer {
  return Buffer.from(pem.replace(/-----[^-]+-----/g, "").replace(/\s+/g, ""), "base64");
}

async function revocationOf(certificate: Parsed, issuer: Parsed, services: RevocationServices, cache: RevocationCache) {
  const failures: string[] = [];
  // OCSP first, then the CRLs: the first service that answers decides.
  const attempts = [
    ...services.ocsp.map((url) => ({ key: `ocsp ${url}`, answer: () => ocspAnswer(url, certificate, issuer) })),
    ...services.crl.map((url) => ({ key: `crl ${url}`, answer: () => crlAnswer(url, certificate, issuer) })),
  ];
  for (const attempt of attempts) {
    const key = `${attempt.key} ${certificate.der.toString("base64")}`;
    if (!cache.has(key)) cache.set(key, attempt.answer());
    try {
      return await cache.get(key)!;
    } catch (error) {
      cache.delete(key);
      if (error instanceof CertificateRevokedError) throw error;
      failures.push((error as Error).message);
    }
  }
  throw new RevocationUnavailableError(`no revocation data for ${describe(certificate)}: ${failures.join("; ")}`);
}

async function httpGet(url: string, accept: string): Promise<Buffer> {
  return httpFetch(url, { method: "GET", headers: { accept } });
}

async function httpFetch(url: string, init: RequestInit): Promise<Buffer> {
  const host = new URL(url).host;
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS), redirect: "error" });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const body = Buffer.from(await response.arrayBuffer());
    if (body.length > MAX_REPLY_BYTES) throw new Error("reply too large");
    return body;
  } catch (error) {
    const reason = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
    throw new Error(`${host} unavailable: ${reason}`);
  }
}

/** OCSP CertID (RFC 6960 § 4.1.1) with SHA-1, which every responder answers. */
function certId(certificate: Parsed, issuer: Parsed): Buffer {
  const issuerSubject = encodedOf(issuer.tbs[4]!);
  const issuerKey = contentOf(childrenOf(issuer.tbs[5]!)[1]!).subarray(1);
  const sha1 = (b: Buffer) => createHash("sha1").update(b).digest();
  return tlv(SEQUENCE, tlv(SEQUENCE, oidDer(OID.sha1), NULL_DER), tlv(OCTET_STRING, sha1(issuerSubject)), tlv(OCTET_STRING, sha1(issuerKey)), tlv(INTEGER, certificate.serial));
}

async function ocspAnswer(url: string, certificate: Parsed, issuer: Parsed) {
  const request = tlv(SEQUENCE, tlv(SEQUENCE, tlv(SEQUENCE, tlv(SEQUENCE, certId(certificate, issuer)))));
  const reply = await httpFetch(url, { method: "POST", headers: { "content-type": "application/ocsp-request", accept: "application/ocsp-response" }, body: new Uint8Array(request) });
  const host = new URL(url).host;
  let status: ReturnType<typeof readOcspResponse>;
  try {
    status = readOcspResponse(reply, certificate, issuer);
  } catch (error) {
    throw new Error(`OCSP responder ${host}: ${(error as Error).message}`);
  }
  if (status.status === "revoked") throw new CertificateRevokedError(`the certificate ${describe(certificate)} is revoked (OCSP responder ${host})`);
  if (status.status !== "good") throw new Error(`OCSP responder ${host} does not know the certificate`);
  return { kind: "ocsp" as const, der: reply, extraCerts: status.certs };
}

/**
 * Reads an OCSPResponse (RFC 6960 § 4.2.1) and checks it: successful, a basic response signed by the
 * issuer or by a responder certificate the issuer signed, naming this certificate's serial.
 */
function readOcspResponse(reply: Buffer, certificate: Parsed, issuer: Parsed): { status: "good" | "revoked" | "unknown"; certs: Buffer[] } {
  const [responseStatus, responseBytes] = childrenOf(readDer(reply));
  const code = responseStatus ? contentOf(responseStatus)[0] : -1;
  if (code !== 0 || !responseBytes) throw new Error(`the responder answered status ${code}`);
  const [type, octets] = childrenOf(childrenOf(responseBytes)[0]!);
  if (oidText(type!) !== OID.basicOcspResponse) throw new Error("not a basic OCSP response");
  const basic = childrenOf(readDer(contentOf(octets!)));
  const [tbsResponseData, algorithm, signature, certsNode] = basic;
  const hash = SIGNATURE_HASHES[oidText(childrenOf(algorithm!)[0]!)];
  if (!hash) throw new Error("unsupported signature algorithm");
  const certs = certsNode ? childrenOf(childrenOf(certsNode)[0]!).map((n) => Buffer.from(encodedOf(n))) : [];
  const signers = [issuer.x509, ...certs.map((c) => new X509Certificate(c)).filter((c) => c.checkIssued(issuer.x509) && verifiesWith(c, issuer.x509.publicKey))];
  const signed = encodedOf(tbsResponseData!);
  const signatureValue = contentOf(signature!).subarray(1);
  if (!signers.some((s) => safeVerify(hash, signed, s.publicKey, signatureValue))) throw new Error("the response is not signed by the issuer or a responder it certified");

  const data = childrenOf(tbsResponseData!);
  const fields = data[0]?.tag === 0xa0 ? data.slice(1) : data;
  const responses = childrenOf(fields[2]!);
  for (const single of responses) {
    const [id, certStatus] = childrenOf(single);
    const serial = contentOf(childrenOf(id!)[3]!);
    if (!serial.equals(certificate.serial)) continue;
    const statusTag = certStatus!.tag & 0x1f;
    return { status: statusTag === 0 ? "good" : statusTag === 1 ? "revoked" : "unknown", certs };
  }
  throw new Error("the response does not name the certificate");
}

function safeVerify(hash: string, data: Buffer, key: KeyObject, signature: Buffer): boolean {
  try {
    return verify(hash, data, key, signature);
  } catch {
    return false;
  }
}

async function crlAnswer(url: string, certificate: Parsed, issuer: Parsed) {
  const body = await httpGet(url, "application/pkix-crl");
  const der = body.subarray(0, 10).toString("latin1").startsWith("-----BEGIN") ? pemToDer(body.toString("latin1")) : body;
  const host = new URL(url).host;
  let revoked: boolean;
  try {
    revoked = crlRevokes(der, certificate, issuer);
  } catch (error) {
    throw new Error(`CRL at ${host}: ${(error as Error).message}`);
  }
  if (revoked) throw new CertificateRevokedError(`the certificate ${describe(certificate)} is revoked (CRL at ${host})`);
  return { kind: "crl" as const, der, extraCerts: [] };
}

/** Checks a CertificateList (RFC 5280 § 5.1) is the issuer's, signed by it, and says whether it lists the certificate. */
function crlRevokes(der: Buffer, certificate: Parsed, issuer: Parsed): boolean {
  const [tbsCertList, algorithm, signature] = childrenOf(readDer(der));
  const hash = SIGNATURE_HASHES[oidText(childrenOf(algorithm!)[0]!)];
  if (!hash) throw new Error("unsupported signature algorithm");
  if (!safeVerify(hash, encodedOf(tbsCertList!), issuer.x509.publicKey, contentOf(signature!).subarray(1))) throw new Error("not signed by the certificate's issuer");
  const fields = childrenOf(tbsCertList!);
  const rest = fields[0]?.tag === INTEGER ? fields.slice(1) : fields;
  // signature, issuer, thisUpdate, nextUpdate?, revokedCertificates?, [0] extensions?
  const revokedList = rest.slice(3).find((n) => n.tag === SEQUENCE);
  for (const entry of revokedList ? childrenOf(revokedList) : []) {
    if (contentOf(childrenOf(entry)[0]!).equals(certificate.serial)) return true;
  }
  return false;
}
