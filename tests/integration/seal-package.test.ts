import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, documentFields, jobs, packageDocuments, packageSeals, sealedDocuments } from "@/db/schema";
import { verifyAuditChain } from "@/lib/audit/verify-audit-chain";
import { setEnvForTests } from "@/lib/env";
import { createJobRegistry } from "@/lib/jobs/create-job-registry";
import { runDueJobs } from "@/lib/job-runner/run-due-jobs";
import { localSubjectForEmail } from "@/lib/auth/local-tokens";
import { resolvePrincipal } from "@/lib/auth/principal";
import { getPackageSeal } from "@/lib/seals/get-package-seal";
import { retryPackageSeal } from "@/lib/seals/retry-package-seal";
import { sealPackage } from "@/lib/seals/seal-package";
import { sealPackageJob } from "@/lib/seals/seal-package-job";
import { callApi, tokenFor } from "../helpers/api";
import { createTestDb, type TestDb } from "../helpers/db";
import { loadDemoWorld, type DemoWorld } from "../helpers/fixtures";
import { createSignerPackage, pngDataUrl } from "../helpers/signing-fixtures";
import { readObject } from "@/lib/storage/objects";

const run = promisify(execFile);
const registry = createJobRegistry([sealPackageJob]);
const dir = mkdtempSync(join(tmpdir(), "seal-test-"));

let testDb: TestDb;
let world: DemoWorld;
let counter = 0;

beforeAll(async () => {
  testDb = await createTestDb();
  world = await loadDemoWorld(testDb.db);
  setEnvForTests({ VAULT_WEBHOOK_URL: undefined });
});
afterAll(async () => {
  await testDb.cleanup();
});

/** A two-signer, two-document package signed to completion through /v1 (one drawn, one typed signature). */
async function completedPackage() {
  counter += 1;
  const a = `seal-a-${counter}@demo.local`;
  const b = `seal-b-${counter}@demo.local`;
  const pkg = await createSignerPackage(testDb.db, {
    location: world.austin,
    title: `Seal test ${counter}`,
    documentCount: 2,
    signers: [{ email: a }, { email: b, routingOrder: 2, role: "co_signer" }],
  });
  for (const [email, signature] of [
    [a, { kind: "drawn", imageDataUrl: pngDataUrl(40, 12) }],
    [b, { kind: "typed", text: "Bea Cosigner", font: "great-vibes" }],
  ] as const) {
    for (const doc of pkg.documents) {
      const res = await callApi(`/v1/signing/signer/signings/${pkg.id}/documents/${doc.id}/esignatures`, {
        method: "POST",
        token: await tokenFor(email),
        json: { ...signature, consent: true },
        headers: { "user-agent": "SealTest/1.0" },
      });
      expect(res.status).toBe(201);
    }
  }
  return pkg;
}

async function pdfsig(bytes: Uint8Array, name: string): Promise<{ code: number; out: string }> {
  const file = join(dir, name);
  writeFileSync(file, bytes);
  try {
    const { stdout } = await run("pdfsig", [file]);
    return { code: 0, out: stdout };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: `${e.stdout}${e.stderr}` };
  }
}

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

describe("sealing a completed package", () => {
  it("completion enqueues one seal job; the job seals each document, pdfsig validates it, and one flipped byte breaks it", async () => {
    const pkg = await completedPackage();
    const [pending] = await testDb.db.select().from(packageSeals).where(eq(packageSeals.packageId, pkg.id));
    expect(pending).toMatchObject({ status: "pending" });
    const [completedEntry] = await testDb.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.packageId, pkg.id), eq(auditLog.action, "signing.completed")));
    expect(pending!.auditHeadHash).toBe(completedEntry!.hash);
    const sealJobs = await testDb.db.select().from(jobs).where(and(eq(jobs.name, "seal-package"), eq(jobs.idempotencyKey, `seal:${pkg.id}`)));
    expect(sealJobs).toHaveLength(1);

    expect(await runDueJobs(testDb.db, { workerId: "seal-test", registry })).toMatchObject({ claimed: 1, succeeded: 1 });

    const seal = await getPackageSeal(testDb.db, { packageId: pkg.id });
    expect(seal).toMatchObject({ status: "sealed", lastError: null });
    const files = await withContent(await testDb.db.select().from(sealedDocuments).where(eq(sealedDocuments.packageId, pkg.id)));
    expect(files.map((f) => f.documentId).sort()).toEqual(pkg.documents.map((d) => d.id).sort());

    for (const file of files) {
      expect(sha256(file.content)).toBe(file.sha256);
      // Sealed by incremental update: the file begins with the original document's exact bytes.
      const [original] = await testDb.db.select().from(packageDocuments).where(eq(packageDocuments.id, file.documentId));
      const originalBytes = await readObject(testDb.db, original!.storageKey);
      expect(file.content.byteLength).toBeGreaterThan(originalBytes.byteLength);
      expect(sha256(file.content.subarray(0, originalBytes.byteLength))).toBe(original!.sha256);
      const ok = await pdfsig(file.content, `${file.documentId}.pdf`);
      expect(ok.out).toMatch(/Signature Validation: Signature is Valid/);
      expect(ok.out).toMatch(/Signature Type: ETSI\.CAdES\.detached/);
      expect(ok.out).toMatch(/Total document signed/);

      // One byte inside the signed range (the original page content near the start of the file).
      const flipped = Buffer.from(file.content);
      const at = 400;
      flipped[at] = flipped[at]! ^ 0x01;
      const broken = await pdfsig(flipped, `${file.documentId}-flipped.pdf`);
      expect(broken.out).not.toMatch(/Signature is Valid/);
      expect(broken.out).toMatch(/Signature Validation: (Digest Mismatch|Signature is Invalid)/);
    }

    const [certificateRow] = await testDb.db.select().from(packageSeals).where(eq(packageSeals.packageId, pkg.id));
    expect((await pdfsig((await readObject(testDb.db, certificateRow!.certificateStorageKey!)), "certificate.pdf")).out).toMatch(/Signature is Valid/);

    // Completion entry anchored: the seal entry names the head the certificate carries and every sealed file's hash.
    const [sealedEntry] = await testDb.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.packageId, pkg.id), eq(auditLog.action, "signing.sealed")));
    const after = sealedEntry!.after as { anchoredAuditHead: string; documents: { documentId: string; sealedSha256: string }[]; certificateSha256: string };
    expect(after.anchoredAuditHead).toBe(completedEntry!.hash);
    expect(after.documents.map((d) => d.sealedSha256).sort()).toEqual(files.map((f) => f.sha256).sort());
    expect(after.certificateSha256).toBe(sha256((await readObject(testDb.db, certificateRow!.certificateStorageKey!))));
    expect(await verifyAuditChain(testDb.db, { packageId: pkg.id })).toMatchObject({ verified: true });
  });

  it("a crash before the files are stored leaves nothing; concurrent and repeated runs keep exactly one sealed file per document", async () => {
    const pkg = await completedPackage();
    await expect(
      sealPackage(testDb.db, {
        packageId: pkg.id,
        beforeStore: () => {
          throw new Error("simulated crash mid-seal");
        },
      }),
    ).rejects.toThrow("simulated crash");
    expect(await testDb.db.select().from(sealedDocuments).where(eq(sealedDocuments.packageId, pkg.id))).toHaveLength(0);
    expect((await getPackageSeal(testDb.db, { packageId: pkg.id }))?.status).toBe("pending");

    // The worker that crashed held the job; its lease expires and another worker takes it over while a second copy runs.
    const [job] = await testDb.db.select().from(jobs).where(eq(jobs.idempotencyKey, `seal:${pkg.id}`));
    await testDb.db.update(jobs).set({ status: "running", attempts: 1, lockedBy: "crashed", lockedUntil: sql`now() - interval '1 second'` }).where(eq(jobs.id, job!.id));
    const [outcomeA, outcomeB] = await Promise.all([
      runDueJobs(testDb.db, { workerId: "seal-test-2", registry }),
      sealPackage(testDb.db, { packageId: pkg.id }),
    ]);
    expect(outcomeA).toMatchObject({ claimed: 1, succeeded: 1 });
    expect(["sealed", "already_sealed"]).toContain(outcomeB.outcome);
    expect((await sealPackage(testDb.db, { packageId: pkg.id })).outcome).toBe("already_sealed");

    const files = await withContent(await testDb.db.select().from(sealedDocuments).where(eq(sealedDocuments.packageId, pkg.id)));
    expect(files).toHaveLength(pkg.documents.length);
    expect(new Set(files.map((f) => f.documentId)).size).toBe(pkg.documents.length);
    const sealedEntries = await testDb.db.select().from(auditLog).where(and(eq(auditLog.packageId, pkg.id), eq(auditLog.action, "signing.sealed")));
    expect(sealedEntries).toHaveLength(1);
    expect((sealedEntries[0]!.after as { documents: { sealedSha256: string }[] }).documents.map((d) => d.sealedSha256).sort()).toEqual(
      files.map((f) => f.sha256).sort(),
    );
  });

  it("a failing seal is marked failed with its error, retried with backoff, and a manager's retry seals it once the cause is fixed", async () => {
    const pkg = await completedPackage();
    setEnvForTests({ VAULT_WEBHOOK_URL: undefined, SEALING_P12: join(dir, "missing.p12") });
    try {
      expect(await runDueJobs(testDb.db, { workerId: "seal-test-3", registry })).toMatchObject({ claimed: 1, retried: 1 });
    } finally {
      setEnvForTests({ VAULT_WEBHOOK_URL: undefined, SEALING_P12: undefined });
    }
    const failed = await getPackageSeal(testDb.db, { packageId: pkg.id });
    expect(failed).toMatchObject({ status: "failed", attempts: 1, documents: [] });
    expect(failed!.lastError).toMatch(/SEALING_P12: cannot read/);
    const [job] = await testDb.db.select().from(jobs).where(eq(jobs.idempotencyKey, `seal:${pkg.id}`));
    expect(job).toMatchObject({ status: "queued", attempts: 1 });
    expect(job!.runAt.getTime()).toBeGreaterThan(Date.now());
    expect(await runDueJobs(testDb.db, { workerId: "seal-test-3", registry })).toMatchObject({ claimed: 0 });

    // Every attempt used up: the job is failed for good, the seal stays failed; a manager retries it.
    await testDb.db.update(jobs).set({ status: "failed", finishedAt: sql`now()` }).where(eq(jobs.id, job!.id));
    const manager = await resolvePrincipal(testDb.db, localSubjectForEmail("manager@demo.local"));
    expect(await retryPackageSeal(testDb.db, { principal: manager, packageId: pkg.id })).toMatchObject({ status: "failed" });
    expect(await retryPackageSeal(testDb.db, { principal: manager, packageId: pkg.id })).toMatchObject({ status: "failed" });
    const queued = await testDb.db.select().from(jobs).where(and(eq(jobs.name, "seal-package"), eq(jobs.status, "queued")));
    expect(queued.filter((j) => (j.payload as { packageId: string }).packageId === pkg.id)).toHaveLength(1);
    expect(await runDueJobs(testDb.db, { workerId: "seal-test-3", registry })).toMatchObject({ claimed: 1, succeeded: 1 });
    expect(await getPackageSeal(testDb.db, { packageId: pkg.id })).toMatchObject({ status: "sealed", lastError: null });
    const signer = await resolvePrincipal(testDb.db, localSubjectForEmail(`seal-a-${counter}@demo.local`));
    await expect(retryPackageSeal(testDb.db, { principal: signer, packageId: pkg.id })).rejects.toMatchObject({ code: "forbidden" });
  });

  it("deleting the last audit entries of a sealed package is detected against the anchored head", async () => {
    const pkg = await completedPackage();
    await sealPackage(testDb.db, { packageId: pkg.id });
    expect(await verifyAuditChain(testDb.db, { packageId: pkg.id })).toEqual({ verified: true, brokenAt: null });
    const trail = await testDb.db.select().from(auditLog).where(eq(auditLog.packageId, pkg.id)).orderBy(desc(auditLog.id));
    expect(trail[0]!.action).toBe("signing.sealed");

    // Drop the seal entry: the rest still chains, but the seal says it was there.
    await testDb.db.delete(auditLog).where(eq(auditLog.id, trail[0]!.id));
    expect(await verifyAuditChain(testDb.db, { packageId: pkg.id })).toEqual({ verified: false, brokenAt: trail[1]!.id });

    // Drop everything from the completion on: the anchored head is gone.
    const completedAt = trail.findIndex((e) => e.action === "signing.completed");
    await testDb.db.delete(auditLog).where(inArray(auditLog.id, trail.slice(0, completedAt + 1).map((e) => e.id)));
    const remaining = await testDb.db.select().from(auditLog).where(eq(auditLog.packageId, pkg.id)).orderBy(asc(auditLog.id));
    expect(remaining.length).toBeGreaterThan(0);
    expect(await verifyAuditChain(testDb.db, { packageId: pkg.id })).toEqual({ verified: false, brokenAt: remaining.at(-1)!.id });
  });

  it("the vault event keeps exactly the six fields of the spec; sealing sends none", async () => {
    setEnvForTests({ VAULT_WEBHOOK_URL: "http://127.0.0.1:9/vault" });
    let pkg;
    try {
      pkg = await completedPackage();
    } finally {
      setEnvForTests({ VAULT_WEBHOOK_URL: undefined });
    }
    const vaultJobs = await testDb.db.select().from(jobs).where(eq(jobs.name, "deliver-vault-event"));
    const ours = vaultJobs.filter((j) => (j.payload as { event: { signingId: string } }).event.signingId === pkg.id);
    expect(ours).toHaveLength(pkg.documents.length * 2);
    for (const job of ours) {
      expect(Object.keys((job.payload as { event: object }).event).sort()).toEqual(
        ["authUserId", "documentId", "firstESign", "signingId", "signingOrganizationId", "type"],
      );
    }
    await sealPackage(testDb.db, { packageId: pkg.id });
    const after = await testDb.db.select().from(jobs).where(eq(jobs.name, "deliver-vault-event"));
    expect(after).toHaveLength(vaultJobs.length);
  });

  it("draws field values and signatures where the fields are (no signature page), and a signature page when there are none", async () => {
    counter += 1;
    const email = `seal-fields-${counter}@demo.local`;
    const pkg = await createSignerPackage(testDb.db, { location: world.austin, title: `Seal fields ${counter}`, documentCount: 2, signers: [{ email }] });
    const [withFields] = pkg.documents;
    const placed = await testDb.db
      .insert(documentFields)
      .values([
        { packageId: pkg.id, documentId: withFields!.id, signerId: pkg.signers[0]!.id, type: "signature", page: 1, x: 72, y: 120, width: 240, height: 50 },
        { packageId: pkg.id, documentId: withFields!.id, signerId: pkg.signers[0]!.id, type: "text", page: 1, x: 72, y: 200, width: 300, height: 18 },
        { packageId: pkg.id, documentId: withFields!.id, signerId: pkg.signers[0]!.id, type: "date_signed", page: 1, x: 330, y: 120, width: 160, height: 18 },
      ])
      .returning();
    const textField = placed.find((f) => f.type === "text")!;
    for (const doc of pkg.documents) {
      const res = await callApi(`/v1/signing/signer/signings/${pkg.id}/documents/${doc.id}/esignatures`, {
        method: "POST",
        token: await tokenFor(email),
        json: {
          kind: "typed",
          text: "Fieldy McSigner",
          font: "caveat",
          consent: true,
          ...(doc.id === withFields!.id ? { fields: [{ id: textField.id, value: "VIN 1FTEW1EP5JKD12345" }] } : {}),
        },
      });
      expect(res.status, res.text).toBe(201);
    }
    // The server stamps the date it shows the signer (MM/DD/YYYY, UTC) into the date field.
    const [dateField] = await testDb.db.select().from(documentFields).where(eq(documentFields.id, placed.find((f) => f.type === "date_signed")!.id));
    expect(dateField!.value).toMatch(/^\d{2}\/\d{2}\/\d{4}$/);
    await sealPackage(testDb.db, { packageId: pkg.id });
    const files = await withContent(await testDb.db.select().from(sealedDocuments).where(eq(sealedDocuments.packageId, pkg.id)));
    const text = async (documentId: string, page: number) => {
      const file = join(dir, `${documentId}-text.pdf`);
      writeFileSync(file, files.find((f) => f.documentId === documentId)!.content);
      return (await run("pdftotext", ["-f", String(page), "-l", String(page), "-layout", file, "-"])).stdout;
    };
    const stamped = await text(withFields!.id, 1);
    expect(stamped).toContain("VIN 1FTEW1EP5JKD12345");
    expect(stamped).toContain(dateField!.value!);
    expect(stamped).toContain("Fieldy McSigner");
    expect(await text(withFields!.id, 2)).toContain("Certificate of completion");

    const [, withoutFields] = pkg.documents;
    const signaturePage = await text(withoutFields!.id, 2);
    expect(signaturePage).toContain("Signatures");
    expect(signaturePage).toContain("Fieldy McSigner");
    expect(await text(withoutFields!.id, 3)).toContain("Certificate of completion");
  });
});

/** The sealed rows with their bytes read from file storage. */
async function withContent<T extends { storageKey: string }>(rows: T[]): Promise<(T & { content: Uint8Array })[]> {
  return Promise.all(rows.map(async (row) => ({ ...row, content: await readObject(testDb.db, row.storageKey) })));
}
