import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, packageDocuments, packageSeals, signingPackages } from "@/db/schema";
import { localSubjectForEmail } from "@/lib/auth/local-tokens";
import { resolvePrincipal } from "@/lib/auth/principal";
import { acknowledgeDocument } from "@/lib/closings/acknowledge-document";
import { attachDocumentScan } from "@/lib/closings/attach-document-scan";
import { getTablePacket } from "@/lib/closings/get-table-packet";
import { readPageCode } from "@/lib/closings/read-page-code";
import { reviewDocumentScan } from "@/lib/closings/review-document-scan";
import { sealPackage } from "@/lib/seals/seal-package";
import { callApi, tokenFor } from "../helpers/api";
import { createTestDb, type TestDb } from "../helpers/db";
import { loadDemoWorld, type DemoWorld } from "../helpers/fixtures";
import { printToPngs, sentInkPackage } from "../helpers/ink-package";
import { readObject } from "@/lib/storage/objects";

const run = promisify(execFile);
// ImageMagick itself (a stand-in named `convert` may come first on PATH).
const CONVERT = existsSync("/usr/bin/convert") ? "/usr/bin/convert" : "convert";
const dir = mkdtempSync(join(tmpdir(), "hybrid-test-"));

let testDb: TestDb;
let world: DemoWorld;

beforeAll(async () => {
  testDb = await createTestDb();
  world = await loadDemoWorld(testDb.db);
}, 120_000);
afterAll(async () => {
  await testDb?.cleanup();
});

/** A sent package: two esign documents, one wet_sign (2 pages), one review_only, one borrower. */
async function hybridPackage() {
  const pkg = await sentInkPackage(testDb.db, world, {
    label: "Hybrid",
    documents: [
      { name: "Disclosure A.pdf" },
      { name: "Disclosure B.pdf" },
      { name: "Note.pdf", pages: 2, executionMode: "wet_sign" },
      { name: "Booklet.pdf", executionMode: "review_only" },
    ],
    appointment: { closingAt: "2026-12-01T15:00:00Z", closingPlace: "Title office, 1 Main St", settlementAgent: "Sam Agent" },
  });
  return { ...pkg, signer: await resolvePrincipal(testDb.db, localSubjectForEmail(pkg.email)) };
}

async function esign(pkg: { id: string; email: string }, documentId: string) {
  return callApi(`/v1/signing/signer/signings/${pkg.id}/documents/${documentId}/esignatures`, {
    method: "POST",
    token: await tokenFor(pkg.email),
    json: { kind: "typed", text: "Bo Rower", font: "great-vibes", consent: true },
  });
}

/** The packet printed to PNGs at `dpi` with pdftoppm, pages in order (cover first). */
const rasterize = (pdf: Uint8Array, name: string, dpi = 150) => printToPngs(pdf, dir, name, dpi);

const status = async (id: string) => (await testDb.db.select().from(signingPackages).where(eq(signingPackages.id, id)))[0]!.status;

describe("hybrid closings", () => {
  it("completes only when e-signed, acknowledged and the accepted scan are all in, and seals the scan", async () => {
    const pkg = await hybridPackage();
    const [a, b, note, booklet] = pkg.docs;
    expect(pkg.docs.map((d) => d.executionMode)).toEqual(["esign", "esign", "wet_sign", "review_only"]);

    // Ink and review-only documents cannot be e-signed.
    const inkSign = await esign(pkg, note!.id);
    expect(inkSign.status).toBe(409);
    expect(inkSign.text).toContain("signed in ink at the closing table");
    expect((await esign(pkg, booklet!.id)).status).toBe(409);

    expect((await esign(pkg, a!.id)).status).toBe(201);
    expect((await esign(pkg, b!.id)).status).toBe(201);
    expect(await status(pkg.id)).toBe("in_progress");
    await acknowledgeDocument(testDb.db, { principal: pkg.signer, packageId: pkg.id, documentId: booklet!.id });
    expect(await status(pkg.id)).toBe("in_progress");

    // Packet: cover + 2 stamped pages; regenerating gives the same codes.
    const packet = await getTablePacket(testDb.db, { principal: pkg.manager, packageId: pkg.id });
    const again = await getTablePacket(testDb.db, { principal: pkg.manager, packageId: pkg.id });
    expect(Buffer.from(again.content).equals(Buffer.from(packet.content))).toBe(true);
    const pages = await rasterize(packet.content, `p${pkg.n}`);
    expect(pages).toHaveLength(3);
    const cover = await readPageCode(readFileSync(pages[0]!));
    expect(cover.outcome).toBe("unreadable");
    // Page 2 turned upside down by ImageMagick, with noise.
    const turned = join(dir, `turned-${pkg.n}.png`);
    await run(CONVERT, [pages[2]!, "-rotate", "180", "-attenuate", "0.3", "+noise", "Gaussian", turned]);
    const r1 = await readPageCode(readFileSync(pages[1]!));
    const r2 = await readPageCode(readFileSync(turned));
    expect(r1).toEqual({ outcome: "read", ref: { packageId: pkg.id, documentId: note!.id, page: 1 }, rotation: 0 });
    expect(r2).toEqual({ outcome: "read", ref: { packageId: pkg.id, documentId: note!.id, page: 2 }, rotation: 180 });

    const scanPages = [readFileSync(pages[1]!), readFileSync(pages[2]!)].map((bytes) => ({ bytes, contentType: "image/png" as const }));
    const attach = () =>
      testDb.db.transaction(async (tx) => {
        const [doc] = await tx.select().from(packageDocuments).where(eq(packageDocuments.id, note!.id));
        return attachDocumentScan(tx, doc!, { organizationId: world.austin.organizationId, pages: scanPages, actorUserId: pkg.manager.user.id });
      });
    expect((await attach()).executionStatus).toBe("scan_uploaded");
    await expect(reviewDocumentScan(testDb.db, { principal: pkg.manager, packageId: pkg.id, documentId: note!.id, review: { decision: "reject" } as never })).rejects.toMatchObject({ status: 400 });
    await reviewDocumentScan(testDb.db, { principal: pkg.manager, packageId: pkg.id, documentId: note!.id, review: { decision: "reject", reason: "Page 2 unsigned" } });
    expect(await status(pkg.id)).toBe("in_progress");
    expect((await attach()).executionStatus).toBe("scan_uploaded");
    await reviewDocumentScan(testDb.db, { principal: pkg.manager, packageId: pkg.id, documentId: note!.id, review: { decision: "accept" } });
    expect(await status(pkg.id)).toBe("completed");

    const actions = (await testDb.db.select({ action: auditLog.action }).from(auditLog).where(eq(auditLog.packageId, pkg.id))).map((r) => r.action);
    expect(actions).toEqual(expect.arrayContaining(["document.esigned", "document.acknowledged", "document.scan_uploaded", "document.rejected", "document.accepted", "signing.completed"]));
    const [seal] = await testDb.db.select().from(packageSeals).where(eq(packageSeals.packageId, pkg.id));
    expect(seal?.status).toBe("pending");

    // Sealed, the certificate says how each document was executed and who confirmed receipt of the booklet.
    expect(await sealPackage(testDb.db, { packageId: pkg.id })).toMatchObject({ outcome: "sealed" });
    const [sealed] = await testDb.db.select().from(packageSeals).where(eq(packageSeals.packageId, pkg.id));
    const file = join(dir, `certificate-${pkg.n}.pdf`);
    writeFileSync(file, await readObject(testDb.db, sealed!.certificateStorageKey!));
    const certificate = (await run("pdftotext", ["-layout", file, "-"])).stdout;
    const entry = (name: string) => new RegExp(`${name.replace(".", "\\.")}((?:(?!\\.pdf)[\\s\\S])*)`).exec(certificate)?.[1] ?? "";
    expect(entry("Booklet.pdf")).toContain("Execution: review only (receipt acknowledged)");
    expect(entry("Booklet.pdf")).toMatch(new RegExp(`Receipt confirmed by ${pkg.name} <${pkg.email}> \\d{4}`));
    expect(entry("Note.pdf")).toContain(`accepted by ${pkg.manager.user.name}`);
    expect(entry("Note.pdf")).not.toContain("Receipt confirmed");
    expect(entry("Disclosure A.pdf")).toContain("Execution: e-signed");
    expect(entry("Disclosure A.pdf")).not.toContain("Receipt confirmed");
  }, 60_000);

  it("reads codes at 300 dpi, turned 90°, and skewed 2°, and refuses nothing that is not ours", async () => {
    const pkg = await hybridPackage();
    const note = pkg.docs[2]!;
    const packet = await getTablePacket(testDb.db, { principal: pkg.manager, packageId: pkg.id });
    const pages = await rasterize(packet.content, `hi${pkg.n}`, 300);
    const rotated = join(dir, `r90-${pkg.n}.jpg`);
    await run(CONVERT, [pages[1]!, "-rotate", "90", "-quality", "80", rotated]);
    const skewed = join(dir, `skew-${pkg.n}.png`);
    await run(CONVERT, [pages[2]!, "-background", "white", "-rotate", "2", skewed]);
    expect(await readPageCode(readFileSync(rotated))).toEqual({ outcome: "read", ref: { packageId: pkg.id, documentId: note.id, page: 1 }, rotation: 270 });
    expect(await readPageCode(readFileSync(skewed))).toMatchObject({ outcome: "read", ref: { page: 2 }, rotation: 0 });
  }, 60_000);
});
