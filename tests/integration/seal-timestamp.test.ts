import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { and, eq, sql } from "drizzle-orm";
import forge from "node-forge";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyAction } from "@/app/verify/verify-action";
import { auditLog, jobs, packageSeals, sealedDocuments } from "@/db/schema";
import { setEnvForTests } from "@/lib/env";
import { createJobRegistry } from "@/lib/jobs/create-job-registry";
import { runDueJobs } from "@/lib/job-runner/run-due-jobs";
import { getPackageSeal } from "@/lib/seals/get-package-seal";
import { requestTimestamp } from "@/lib/seals/request-timestamp";
import { sealPackageJob } from "@/lib/seals/seal-package-job";
import { verifySealedPdf } from "@/lib/seals/verify-sealed-pdf";
import { readObject } from "@/lib/storage/objects";
import { startTsa, type RunningTsa } from "../fakes/tsa/start-tsa";
import { eSignEveryDocument } from "../helpers/api";
import { createTestDb, type TestDb } from "../helpers/db";
import { loadDemoWorld, type DemoWorld } from "../helpers/fixtures";
import { inNextRequestScope } from "../helpers/next-request-scope";
import { createSignerPackage } from "../helpers/signing-fixtures";

const run = promisify(execFile);
const registry = createJobRegistry([sealPackageJob]);
const dir = mkdtempSync(join(tmpdir(), "seal-tsa-test-"));
const credentials = { username: "sealer", password: "tsa-secret-1" };

let testDb: TestDb;
let world: DemoWorld;
let tsa: RunningTsa;
let counter = 0;

beforeAll(async () => {
  testDb = await createTestDb();
  world = await loadDemoWorld(testDb.db);
  tsa = await startTsa({ credentials });
  setEnvForTests({ VAULT_WEBHOOK_URL: undefined, ...tsa.env });
});
afterAll(async () => {
  setEnvForTests({ VAULT_WEBHOOK_URL: undefined });
  await tsa?.stop();
  await testDb?.cleanup();
});

async function completedPackage() {
  counter += 1;
  const email = `tsa-signer-${counter}@demo.local`;
  const pkg = await createSignerPackage(testDb.db, { location: world.austin, title: `Timestamp test ${counter}`, documentCount: 2, signers: [{ email }] });
  await eSignEveryDocument(pkg, email, "Tess Stamp");
  return pkg;
}

async function exec(command: string, args: string[], cwd = dir): Promise<{ code: number; out: string }> {
  try {
    const { stdout, stderr } = await run(command, args, { cwd });
    return { code: 0, out: `${stdout}${stderr}` };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: `${e.stdout}${e.stderr}` };
  }
}

/** `pdfsig` on the file, and its signature dumped with `pdfsig -dump` (the raw CMS from /Contents). */
async function pdfsigWithDump(bytes: Uint8Array, name: string): Promise<{ out: string; cms: Buffer }> {
  const work = mkdtempSync(join(dir, `${name}-`));
  const file = join(work, `${name}.pdf`);
  writeFileSync(file, bytes);
  const { out } = await exec("pdfsig", [file], work);
  await exec("pdfsig", ["-dump", file], work);
  const dumped = readdirSync(work).find((f) => f.endsWith(".sig0"));
  expect(dumped, "pdfsig -dump wrote the signature").toBeDefined();
  return { out, cms: readFileSync(join(work, dumped!)) };
}

/**
 * The signer's signature value and its id-aa-timeStampToken (1.2.840.113549.1.9.16.2.14) unsigned
 * attribute, read from the CMS by hand (RFC 5652 § 5.3), not with the code under test. `pdfsig -dump`
 * writes the whole zero-padded /Contents; node-forge's typings lack the parseAllBytes option that skips it.
 */
function signatureAndToken(cms: Buffer): { signature: Buffer; token: Buffer | null } {
  const root = (forge.asn1.fromDer as unknown as (input: forge.util.ByteStringBuffer, options: object) => forge.asn1.Asn1)(forge.util.createBuffer(cms.toString("binary")), { strict: false, parseAllBytes: false });
  const signedData = ((root.value as forge.asn1.Asn1[])[1]!.value as forge.asn1.Asn1[])[0]!.value as forge.asn1.Asn1[];
  const signerInfo = ((signedData.at(-1)!.value as forge.asn1.Asn1[])[0]!.value as forge.asn1.Asn1[]);
  const signature = Buffer.from(signerInfo[5]!.value as string, "binary");
  const unsigned = signerInfo[6];
  if (!unsigned) return { signature, token: null };
  expect(unsigned.tagClass).toBe(forge.asn1.Class.CONTEXT_SPECIFIC);
  const attribute = (unsigned.value as forge.asn1.Asn1[])[0]!.value as forge.asn1.Asn1[];
  expect(forge.asn1.derToOid(attribute[0]!.value as string)).toBe("1.2.840.113549.1.9.16.2.14");
  const token = (attribute[1]!.value as forge.asn1.Asn1[])[0]!;
  return { signature, token: Buffer.from(forge.asn1.toDer(token).getBytes(), "binary") };
}

/** `openssl ts -verify`: the token is the authority's (chain to its root) and stamps exactly `data`. */
async function opensslVerifiesToken(token: Buffer, data: Buffer, name: string): Promise<{ ok: boolean; out: string }> {
  writeFileSync(join(dir, `${name}.tst`), token);
  writeFileSync(join(dir, `${name}.data`), data);
  const result = await exec("openssl", ["ts", "-verify", "-token_in", "-in", `${name}.tst`, "-data", `${name}.data`, "-CAfile", tsa.caFile, "-untrusted", tsa.certFile]);
  return { ok: result.code === 0 && /Verification: OK/.test(result.out), out: result.out };
}

/** The token's time as OpenSSL prints it ("Time stamp: Nov 28 18:55:01 2026 GMT"). */
async function opensslGenTime(token: Buffer, name: string): Promise<Date> {
  writeFileSync(join(dir, `${name}.tst`), token);
  const { out } = await exec("openssl", ["ts", "-reply", "-token_in", "-in", `${name}.tst`, "-token_out", "-text"]);
  const match = /Time stamp: (.+)/.exec(out);
  expect(match, out).not.toBeNull();
  return new Date(match![1]!.replace(/\s+GMT$/, " UTC"));
}

async function sealedFiles(packageId: string) {
  const rows = await testDb.db.select().from(sealedDocuments).where(eq(sealedDocuments.packageId, packageId));
  const [seal] = await testDb.db.select().from(packageSeals).where(eq(packageSeals.packageId, packageId));
  return [
    ...(await Promise.all(rows.map(async (r) => ({ name: r.documentId, bytes: await readObject(testDb.db, r.storageKey) })))),
    { name: "certificate", bytes: await readObject(testDb.db, seal!.certificateStorageKey!) },
  ];
}

describe("trusted timestamps on seals (PAdES-B-T)", () => {
  it("every sealed document and the certificate carry the authority's timestamp over the signature; pdfsig and openssl ts both verify it", async () => {
    const pkg = await completedPackage();
    const before = tsa.issued();
    expect(await runDueJobs(testDb.db, { workerId: "tsa-test", registry })).toMatchObject({ claimed: 1, succeeded: 1 });
    const files = await sealedFiles(pkg.id);
    expect(files).toHaveLength(3);
    expect(tsa.issued() - before).toBe(3);

    const [entry] = await testDb.db.select().from(auditLog).where(and(eq(auditLog.packageId, pkg.id), eq(auditLog.action, "signing.sealed")));
    const after = entry!.after as { timestampAuthority: string; certificateTimestampedAt: string; documents: { documentId: string; timestampedAt: string }[] };
    expect(after.timestampAuthority).toBe(new URL(tsa.url).host);

    for (const file of files) {
      const { out, cms } = await pdfsigWithDump(file.bytes, file.name);
      expect(out).toMatch(/Signature Validation: Signature is Valid/);
      expect(out).toMatch(/Signature Type: ETSI\.CAdES\.detached/);
      expect(out).toMatch(/Total document signed/);

      const { signature, token } = signatureAndToken(cms);
      expect(token, "the signature carries a signature-time-stamp").not.toBeNull();
      const verified = await opensslVerifiesToken(token!, signature, `${file.name}-ok`);
      expect(verified.ok, verified.out).toBe(true);

      // /verify names the authority's time (the token's genTime), which the seal entry also records.
      const genTime = await opensslGenTime(token!, file.name);
      const result = await verifySealedPdf(testDb.db, { bytes: file.bytes });
      expect(result).toMatchObject({ outcome: "sealed" });
      expect(result.outcome === "sealed" && result.trustedTime?.toISOString()).toBe(genTime.toISOString());
      const recorded = file.name === "certificate" ? after.certificateTimestampedAt : after.documents.find((d) => d.documentId === file.name)!.timestampedAt;
      expect(recorded).toBe(genTime.toISOString());
    }
  });

  it("one flipped byte of the signature value breaks both the signature (pdfsig) and its timestamp (openssl ts)", async () => {
    const pkg = await completedPackage();
    await runDueJobs(testDb.db, { workerId: "tsa-test", registry });
    const [file] = await sealedFiles(pkg.id);
    const { cms } = await pdfsigWithDump(file!.bytes, "intact");
    const { signature } = signatureAndToken(cms);

    // The signature value's hex sits inside /Contents <…>; flip one bit of its middle byte.
    const text = Buffer.from(file!.bytes).toString("latin1");
    const at = text.indexOf(signature.toString("hex").toUpperCase()) >= 0 ? text.indexOf(signature.toString("hex").toUpperCase()) : text.indexOf(signature.toString("hex"));
    expect(at).toBeGreaterThan(0);
    const flipped = Buffer.from(file!.bytes);
    const position = at + signature.length; // a hex digit in the middle of the signature value
    flipped[position] = flipped[position] === 0x30 ? 0x31 : 0x30;

    const broken = await pdfsigWithDump(flipped, "flipped");
    expect(broken.out).not.toMatch(/Signature is Valid/);
    expect(broken.out).toMatch(/Signature Validation: (Signature is Invalid|Digest Mismatch)/);
    const parts = signatureAndToken(broken.cms);
    expect(parts.signature.equals(signature)).toBe(false);
    const verified = await opensslVerifiesToken(parts.token!, parts.signature, "flipped");
    expect(verified.ok).toBe(false);
    expect(verified.out).toMatch(/message imprint mismatch/i);

    // Our own check agrees: the file is no longer the sealed one, and its timestamp no longer matches its signature.
    expect(await verifySealedPdf(testDb.db, { bytes: flipped })).toMatchObject({ outcome: "modified", reason: "changed" });
  });

  it("with the authority down the seal waits (nothing is sealed, the job retries, past its last attempt) and completes once it is back", async () => {
    const pkg = await completedPackage();
    await tsa.down();
    try {
      expect(await runDueJobs(testDb.db, { workerId: "tsa-test", registry })).toMatchObject({ claimed: 1, retried: 1 });
      const failed = await getPackageSeal(testDb.db, { packageId: pkg.id });
      expect(failed).toMatchObject({ status: "failed", documents: [] });
      expect(failed!.lastError).toMatch(/TimestampUnavailableError: time-stamp authority 127\.0\.0\.1:\d+ unavailable/);
      expect(await testDb.db.select().from(sealedDocuments).where(eq(sealedDocuments.packageId, pkg.id))).toHaveLength(0);

      // The last attempt fails too: the job is spent, but a successor is queued to try again later.
      const [job] = await testDb.db.select().from(jobs).where(eq(jobs.idempotencyKey, `seal:${pkg.id}`));
      await testDb.db.update(jobs).set({ attempts: job!.maxAttempts - 1, runAt: sql`now()` }).where(eq(jobs.id, job!.id));
      expect(await runDueJobs(testDb.db, { workerId: "tsa-test", registry })).toMatchObject({ claimed: 1, failed: 1 });
      const queued = (await testDb.db.select().from(jobs).where(and(eq(jobs.name, "seal-package"), eq(jobs.status, "queued")))).filter(
        (j) => (j.payload as { packageId: string }).packageId === pkg.id,
      );
      expect(queued).toHaveLength(1);
      expect(queued[0]!.runAt.getTime()).toBeGreaterThan(Date.now() + 10 * 60_000);
      expect((await getPackageSeal(testDb.db, { packageId: pkg.id }))?.status).toBe("failed");
    } finally {
      await tsa.up();
    }
    await testDb.db.update(jobs).set({ runAt: sql`now()` }).where(and(eq(jobs.name, "seal-package"), eq(jobs.status, "queued")));
    expect(await runDueJobs(testDb.db, { workerId: "tsa-test", registry })).toMatchObject({ claimed: 1, succeeded: 1 });
    expect(await getPackageSeal(testDb.db, { packageId: pkg.id })).toMatchObject({ status: "sealed", lastError: null });
    for (const file of await sealedFiles(pkg.id)) {
      const { out, cms } = await pdfsigWithDump(file.bytes, `late-${file.name}`);
      expect(out).toMatch(/Signature is Valid/);
      expect(signatureAndToken(cms).token).not.toBeNull();
    }
  });

  it("an authority that refuses the credentials gives no timestamp (the seal would wait), with the reason and without the password", async () => {
    setEnvForTests({ VAULT_WEBHOOK_URL: undefined, ...tsa.env, TSA_PASSWORD: "wrong-password" });
    try {
      const error = await requestTimestamp(createHash("sha256").update("x").digest()).catch((e: unknown) => e as Error);
      expect(error).toMatchObject({ name: "TimestampUnavailableError" });
      expect((error as Error).message).toMatch(/HTTP 401/);
      expect((error as Error).message).not.toMatch(/wrong-password|sealer/);
    } finally {
      setEnvForTests({ VAULT_WEBHOOK_URL: undefined, ...tsa.env });
    }
  });

  it("the /verify page's answer carries the trusted time", async () => {
    const pkg = await completedPackage();
    await runDueJobs(testDb.db, { workerId: "tsa-test", registry });
    const [file] = await sealedFiles(pkg.id);
    const { cms } = await pdfsigWithDump(file!.bytes, "verify-page");
    const genTime = await opensslGenTime(signatureAndToken(cms).token!, "verify-page");
    const formData = new FormData();
    formData.set("file", new File([Buffer.from(file!.bytes)], "loan.pdf", { type: "application/pdf" }));
    const state = await inNextRequestScope(new Request("http://localhost:3000/verify", { method: "POST" }), () => verifyAction({ status: "idle" }, formData));
    expect(state).toMatchObject({ status: "ok", result: { outcome: "sealed", trustedTime: genTime.toISOString() } });
  });
});
