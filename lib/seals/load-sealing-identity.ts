import { createPrivateKey, generateKeyPairSync, randomBytes, type KeyObject } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import forge from "node-forge";
import { dataDir, getEnv, type Env } from "@/lib/env";

/** What signs sealed PDFs: the private key, its certificate and any chain certificates, DER-encoded. */
export type SealingIdentity = {
  privateKey: KeyObject;
  certificate: forge.pki.Certificate;
  certificateDer: Buffer;
  chainDer: Buffer[];
  /** The certificate subject's common name (the signer name PDF readers show). */
  commonName: string;
  selfSigned: boolean;
};

const DEV_P12_FILE = "sealing-dev.p12";
const DEV_P12_PASSWORD_FILE = "sealing-dev.p12.password";

let cached: { key: string; identity: SealingIdentity } | undefined;

/**
 * The sealing certificate: `SEALING_P12` (a file path or `base64:<…>`) with `SEALING_P12_PASSWORD`,
 * else a self-signed development certificate generated once under the data directory, so every
 * local process seals with the same key. Production on a public address refuses to start without
 * `SEALING_P12` (lib/env.ts). Parsed once per process.
 */
export function loadSealingIdentity(env: Env = getEnv()): SealingIdentity {
  const key = `${env.SEALING_P12 ?? ""}|${env.SEALING_P12_PASSWORD ?? ""}|${dataDir(env)}`;
  if (cached?.key === key) return cached.identity;
  const identity = env.SEALING_P12
    ? parseP12(readConfiguredP12(env.SEALING_P12), env.SEALING_P12_PASSWORD ?? "", false)
    : loadDevelopmentIdentity(env);
  cached = { key, identity };
  return identity;
}

function readConfiguredP12(value: string): Buffer {
  if (value.startsWith("base64:")) return Buffer.from(value.slice("base64:".length).replace(/\s+/g, ""), "base64");
  try {
    return readFileSync(resolve(value));
  } catch (error) {
    throw new Error(`SEALING_P12: cannot read ${value} (${(error as Error).message}).`);
  }
}

function parseP12(bytes: Buffer, password: string, selfSigned: boolean): SealingIdentity {
  let p12: forge.pkcs12.Pkcs12Pfx;
  try {
    p12 = forge.pkcs12.pkcs12FromAsn1(forge.asn1.fromDer(forge.util.createBuffer(bytes.toString("binary"))), false, password);
  } catch (error) {
    throw new Error(`SEALING_P12: not a PKCS#12 file, or SEALING_P12_PASSWORD is wrong (${(error as Error).message}).`);
  }
  const bags = (type: string): forge.pkcs12.Bag[] => p12.getBags({ bagType: type })[type] ?? [];
  const keyBags = [...bags(forge.pki.oids.pkcs8ShroudedKeyBag!), ...bags(forge.pki.oids.keyBag!)];
  const forgeKey = keyBags.find((bag) => bag.key)?.key as forge.pki.rsa.PrivateKey | undefined;
  if (!forgeKey) throw new Error("SEALING_P12: holds no private key.");
  const certs = bags(forge.pki.oids.certBag!)
    .map((bag) => bag.cert)
    .filter((c): c is forge.pki.Certificate => Boolean(c));
  const certificate = certs.find((c) => {
    const pub = c.publicKey as forge.pki.rsa.PublicKey;
    return pub.n?.compareTo(forgeKey.n) === 0 && pub.e?.compareTo(forgeKey.e) === 0;
  });
  if (!certificate) throw new Error("SEALING_P12: no certificate matches its private key (only RSA keys are supported).");
  const toDer = (c: forge.pki.Certificate) => Buffer.from(forge.asn1.toDer(forge.pki.certificateToAsn1(c)).getBytes(), "binary");
  const commonName = String(certificate.subject.getField("CN")?.value ?? "Sealing certificate");
  return {
    privateKey: createPrivateKey(forge.pki.privateKeyToPem(forgeKey)),
    certificate,
    certificateDer: toDer(certificate),
    chainDer: certs.filter((c) => c !== certificate).map(toDer),
    commonName,
    selfSigned,
  };
}

function loadDevelopmentIdentity(env: Env): SealingIdentity {
  const file = resolve(dataDir(env), DEV_P12_FILE);
  const passwordFile = resolve(dataDir(env), DEV_P12_PASSWORD_FILE);
  if (!existsSync(file) || !existsSync(passwordFile)) {
    mkdirSync(dirname(file), { recursive: true });
    const password = randomBytes(18).toString("base64url");
    const p12 = createDevelopmentP12(password);
    try {
      // Password first: a reader that sees the .p12 always finds its password.
      writeFileSync(passwordFile, password, { flag: "wx", mode: 0o600 });
      writeFileSync(file, p12, { flag: "wx", mode: 0o600 });
      chmodSync(file, 0o600);
    } catch {
      // Another process created them first: use theirs (below).
    }
  }
  return parseP12(readFileSync(file), readFileSync(passwordFile, "utf8").trim(), true);
}

/** A 10-year self-signed RSA-2048 certificate for local development; the key comes from Node (fast), the container from forge. */
function createDevelopmentP12(password: string): Buffer {
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const forgeKey = forge.pki.privateKeyFromPem(privateKey.export({ type: "pkcs1", format: "pem" }).toString());
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.setRsaPublicKey(forgeKey.n, forgeKey.e);
  cert.serialNumber = `01${randomBytes(15).toString("hex")}`;
  cert.validity.notBefore = new Date(Date.now() - 60_000);
  cert.validity.notAfter = new Date(Date.now() + 10 * 365 * 24 * 3600_000);
  const subject = [
    { name: "commonName", value: "Closing & Signing development seal" },
    { name: "organizationName", value: "Closing & Signing (development, self-signed)" },
  ];
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.setExtensions([
    { name: "basicConstraints", cA: false },
    { name: "keyUsage", digitalSignature: true, nonRepudiation: true },
    { name: "subjectKeyIdentifier" },
  ]);
  cert.sign(forgeKey, forge.md.sha256.create());
  const asn1 = forge.pkcs12.toPkcs12Asn1(forgeKey, [cert], password, { algorithm: "aes256", friendlyName: "sealing" });
  return Buffer.from(forge.asn1.toDer(asn1).getBytes(), "binary");
}
