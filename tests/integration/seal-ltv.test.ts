import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { and, eq, sql } from "drizzle-orm";
import { decodePDFRawStream, PDFArray, PDFDict, PDFDocument, PDFName, PDFRawStream, PDFRef } from "pdf-lib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jobs, packageSeals, sealedDocuments } from "@/db/schema";
import { runPreflight } from "@/lib/deploy/preflight";
import { setEnvForTests } from "@/lib/env";
import { createJobRegistry } from "@/lib/jobs/create-job-registry";
import { runDueJobs } from "@/lib/job-runner/run-due-jobs";
import { getPackageSeal } from "@/lib/seals/get-package-seal";
import { sealPackageJob } from "@/lib/seals/seal-package-job";
import { verifySealedPdf } from "@/lib/seals/verify-sealed-pdf";
import { readObject } from "@/lib/storage/objects";
import { startTestCa, type IssuedSealingCertificate, type RunningTestCa } from "../fakes/revocation/start-test-ca";
import { startTsa, type RunningTsa } from "../fakes/tsa/start-tsa";
import { eSignEveryDocument } from "../helpers/api";
import { createTestDb, type TestDb } from "../helpers/db";
import { loadDemoWorld, type DemoWorld } from "../helpers/fixtures";
import { createSignerPackage } from "../helpers/signing-fixtures";

const run = promisify(execFile);
const registry = createJobRegistry([sealPackageJob]);
const dir = mkdtempSync(join(tmpdir(), "seal-ltv-test-"));

let testDb: TestDb;
let world: DemoWorld;
let tsa: RunningTsa;
let ca: RunningTestCa;
let counter = 0;

beforeAll(async () => {
  testDb = await createTestDb();
  world = await loadDemoWorld(testDb.db);
  tsa = await startTsa();
  ca = await startTestCa();
});
afterAll(async () => {
  setEnvForTests({ VAULT_WEBHOOK_URL: undefined, SEALING_P12: undefined, SEALING_P12_PASSWORD: undefined, TSA_URL: undefined });
  await tsa?.stop();
  await ca?.stop();
  await testDb?.cleanup();
});

function sealWith(certificate: IssuedSealingCertificate | null) {
  setEnvForTests({ VAULT_WEBHOOK_URL: undefined, ...tsa.env, SEALING_P12: certificate?.env.SEALING_P12, SEALING_P12_PASSWORD: certificate?.env.SEALING_P12_PASSWORD });
}

async function completedPackage() {
  counter += 1;
  const email = `ltv-signer-${counter}@demo.local`;
  const pkg = await createSignerPackage(testDb.db, { location: world.austin, title: `LTV test ${counter}`, documentCount: 1, signers: [{ email }] });
  await eSignEveryDocument(pkg, email, "Liv Tevee");
  return pkg;
}

async function sealedFiles(packageId: string) {
  const rows = await testDb.db.select().from(sealedDocuments).where(eq(sealedDocuments.packageId, packageId));
  const [seal] = await testDb.db.select().from(packageSeals).where(eq(packageSeals.packageId, packageId));
  return [
    ...(await Promise.all(rows.map(async (r) => ({ name: r.documentId, bytes: Buffer.from(await readObject(testDb.db, r.storageKey)) })))),
    { name: "certificate", bytes: Buffer.from(await readObject(testDb.db, seal!.certificateStorageKey!)) },
  ];
}

async function exec(command: string, args: string[]): Promise<{ code: number; out: string }> {
  try {
    const { stdout, stderr } = await run(command, args, { cwd: dir });
    return { code: 0, out: `${stdout}${stderr}` };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: `${e.stdout}${e.stderr}` };
  }
}

/** The catalog's /DSS read with pdf-lib (not the code under test): each entry's decoded stream bytes. */
async function readDss(bytes: Buffer): Promise<{ certs: Buffer[]; ocsps: Buffer[]; crls: Buffer[] } | null> {
  const pdf = await PDFDocument.load(bytes, { updateMetadata: false });
  const dss = pdf.catalog.lookupMaybe(PDFName.of("DSS"), PDFDict);
  if (!dss) return null;
  const streams = (key: string) => {
    const array = dss.lookupMaybe(PDFName.of(key), PDFArray);
    if (!array) return [];
    return array.asArray().map((ref) => {
      const stream = pdf.context.lookup(ref as PDFRef);
      if (!(stream instanceof PDFRawStream)) throw new Error(`/${key} holds something other than a stream`);
      return Buffer.from(decodePDFRawStream(stream).decode());
    });
  };
  return { certs: streams("Certs"), ocsps: streams("OCSPs"), crls: streams("CRLs") };
}

const pemToDer = (file: string) => Buffer.from(readFileSync(file, "latin1").replace(/-----[^-]+-----/g, "").replace(/\s+/g, ""), "base64");

async function pdfsig(bytes: Buffer, name: string): Promise<string> {
  const file = join(dir, `${name}.pdf`);
  writeFileSync(file, bytes);
  return (await exec("pdfsig", [file])).out;
}

describe("PAdES-B-LT: the chain and revocation data in a DSS dictionary", () => {
  it("a sealing certificate naming an OCSP responder and a CRL gets its chain, the responder's answer and nothing unparseable; the signature still verifies", async () => {
    const issued = await ca.issue({ name: "Sealing OCSP and CRL", crl: true, ocsp: true });
    sealWith(issued);
    const pkg = await completedPackage();
    const before = ca.requests();
    expect(await runDueJobs(testDb.db, { workerId: "ltv-test", registry })).toMatchObject({ claimed: 1, succeeded: 1 });
    // Two files (the document, the certificate) share one OCSP answer: the seal asks once.
    expect(ca.requests().ocsp - before.ocsp).toBe(1);

    for (const file of await sealedFiles(pkg.id)) {
      const dss = await readDss(file.bytes);
      expect(dss, `${file.name} has a /DSS`).not.toBeNull();
      const certs = dss!.certs.map((c) => c.toString("hex"));
      expect(certs).toContain(pemToDer(issued.certFile).toString("hex"));
      expect(certs).toContain(pemToDer(ca.caFile).toString("hex"));
      // The authority's certificate comes along with its token (it names no revocation service itself).
      expect(certs).toContain(pemToDer(tsa.certFile).toString("hex"));
      expect(dss!.ocsps).toHaveLength(1);
      expect(dss!.crls).toHaveLength(0);

      // OpenSSL reads the OCSP response, checks it against the CA and finds the certificate good.
      writeFileSync(join(dir, `${file.name}.ocsp`), dss!.ocsps[0]!);
      const ocsp = await exec("openssl", ["ocsp", "-respin", `${file.name}.ocsp`, "-CAfile", ca.caFile, "-issuer", ca.caFile, "-cert", issued.certFile, "-resp_text"]);
      expect(ocsp.code, ocsp.out).toBe(0);
      expect(ocsp.out).toMatch(/Response verify OK/);
      expect(ocsp.out).toMatch(/: good/);
      expect(ocsp.out).toMatch(new RegExp(`Serial Number: ${issued.serialHex}`, "i"));

      const out = await pdfsig(file.bytes, file.name);
      expect(out).toMatch(/Signature Validation: Signature is Valid/);
      // The DSS is an incremental update after the signed bytes: the signature covers the revision it signed.
      expect(out).toMatch(/Not total document signed/);
      expect(await verifySealedPdf(testDb.db, { bytes: file.bytes })).toMatchObject({ outcome: "sealed", trustedTime: expect.any(Date) });
    }
  });

  it("a certificate naming only a CRL distribution point gets the CRL, which OpenSSL parses and verifies against the CA", async () => {
    const issued = await ca.issue({ name: "Sealing CRL only", crl: true });
    sealWith(issued);
    const pkg = await completedPackage();
    expect(await runDueJobs(testDb.db, { workerId: "ltv-test", registry })).toMatchObject({ claimed: 1, succeeded: 1 });
    for (const file of await sealedFiles(pkg.id)) {
      const dss = await readDss(file.bytes);
      expect(dss!.ocsps).toHaveLength(0);
      expect(dss!.crls).toHaveLength(1);
      writeFileSync(join(dir, `${file.name}.crl`), dss!.crls[0]!);
      const crl = await exec("openssl", ["crl", "-inform", "DER", "-in", `${file.name}.crl`, "-CAfile", ca.caFile, "-noout", "-issuer"]);
      expect(crl.code, crl.out).toBe(0);
      expect(crl.out).toMatch(/verify OK/);
      expect(crl.out).toMatch(/Test Sealing Root CA/);
      expect(await pdfsig(file.bytes, `crl-${file.name}`)).toMatch(/Signature is Valid/);
    }
  });

  it("with the revocation services down the seal waits (retried, nothing stored) and completes with its DSS once they are back", async () => {
    const issued = await ca.issue({ name: "Sealing while down", crl: true, ocsp: true });
    sealWith(issued);
    const pkg = await completedPackage();
    await ca.down();
    try {
      expect(await runDueJobs(testDb.db, { workerId: "ltv-test", registry })).toMatchObject({ claimed: 1, retried: 1 });
      const failed = await getPackageSeal(testDb.db, { packageId: pkg.id });
      expect(failed).toMatchObject({ status: "failed", documents: [] });
      expect(failed!.lastError).toMatch(/RevocationUnavailableError: no revocation data for "Sealing while down"/);
      // Past the last attempt a successor is queued, as for a time-stamp authority that is down.
      const [job] = await testDb.db.select().from(jobs).where(eq(jobs.idempotencyKey, `seal:${pkg.id}`));
      await testDb.db.update(jobs).set({ attempts: job!.maxAttempts - 1, runAt: sql`now()` }).where(eq(jobs.id, job!.id));
      expect(await runDueJobs(testDb.db, { workerId: "ltv-test", registry })).toMatchObject({ claimed: 1, failed: 1 });
      const queued = (await testDb.db.select().from(jobs).where(and(eq(jobs.name, "seal-package"), eq(jobs.status, "queued")))).filter(
        (j) => (j.payload as { packageId: string }).packageId === pkg.id,
      );
      expect(queued).toHaveLength(1);
    } finally {
      await ca.up();
    }
    await testDb.db.update(jobs).set({ runAt: sql`now()` }).where(and(eq(jobs.name, "seal-package"), eq(jobs.status, "queued")));
    expect(await runDueJobs(testDb.db, { workerId: "ltv-test", registry })).toMatchObject({ claimed: 1, succeeded: 1 });
    for (const file of await sealedFiles(pkg.id)) expect((await readDss(file.bytes))?.ocsps).toHaveLength(1);
  });

  it("a revoked sealing certificate does not seal", async () => {
    const issued = await ca.issue({ name: "Sealing revoked", ocsp: true });
    await ca.revoke(issued);
    sealWith(issued);
    const pkg = await completedPackage();
    expect(await runDueJobs(testDb.db, { workerId: "ltv-test", registry })).toMatchObject({ claimed: 1, retried: 1 });
    expect((await getPackageSeal(testDb.db, { packageId: pkg.id }))!.lastError).toMatch(/CertificateRevokedError: the certificate "Sealing revoked" is revoked/);
    expect(await testDb.db.select().from(sealedDocuments).where(eq(sealedDocuments.packageId, pkg.id))).toHaveLength(0);
  });

  it("a certificate naming no revocation service seals PAdES-B-T as before: no DSS, the whole file signed", async () => {
    sealWith(null);
    const pkg = await completedPackage();
    expect(await runDueJobs(testDb.db, { workerId: "ltv-test", registry })).toMatchObject({ claimed: 1, succeeded: 1 });
    for (const file of await sealedFiles(pkg.id)) {
      expect(await readDss(file.bytes)).toBeNull();
      expect(await pdfsig(file.bytes, `plain-${file.name}`)).toMatch(/Total document signed/);
    }
  });

  it("preflight names the revocation services a sealing certificate needs, and warns when SEALING_P12 lacks the issuer to ask them about it", async () => {
    const withChain = await ca.issue({ name: "Preflight with chain", ocsp: true, crl: true });
    const sealing = (env: Record<string, string>) => runPreflight({ ...env }, { now: new Date() }).findings.find((f) => f.variable === "SEALING_P12");
    const host = new URL(ca.ocspUrl).host;
    expect(sealing(withChain.env)).toMatchObject({ level: "ok", message: expect.stringContaining(`seals embed its revocation data from ${host}`) });
    const bare = await ca.issue({ name: "Preflight without chain", ocsp: true, withoutChain: true });
    expect(sealing(bare.env)).toMatchObject({ level: "warn", message: expect.stringMatching(/names revocation services .* holds no issuer certificate/) });
    expect(sealing({ ...bare.env, SEAL_LTV: "off" })).toMatchObject({ level: "ok" });
  });
});
