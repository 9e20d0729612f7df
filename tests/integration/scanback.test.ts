import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { eq } from "drizzle-orm";
import { PDFDocument } from "pdf-lib";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, documentScans, packageDocuments } from "@/db/schema";
import { buildScanPdf } from "@/lib/closings/attach-document-scan";
import { getTablePacket } from "@/lib/closings/get-table-packet";
import { acceptScanback, assignScanbackPage, discardScanbackPage, uploadScanback, type ScanbackReport } from "@/lib/closings/scanback";
import { createTestDb, type TestDb } from "../helpers/db";
import { loadDemoWorld, type DemoWorld } from "../helpers/fixtures";
import { printToPngs, sentInkPackage } from "../helpers/ink-package";
import { readObject } from "@/lib/storage/objects";

const run = promisify(execFile);
const CONVERT = existsSync("/usr/bin/convert") ? "/usr/bin/convert" : "convert";
const dir = mkdtempSync(join(tmpdir(), "scanback-test-"));

let testDb: TestDb;
let world: DemoWorld;

beforeAll(async () => {
  testDb = await createTestDb();
  world = await loadDemoWorld(testDb.db);
}, 120_000);
afterAll(async () => {
  await testDb?.cleanup();
});

/** A sent package: one esign disclosure, a 3-page wet_sign note, a 1-page notarized deed; its packet printed (cover, note 1–3, deed 1). */
async function inkPackage() {
  const pkg = await sentInkPackage(testDb.db, world, {
    label: "Scanback",
    documents: [{ name: "Disclosure.pdf" }, { name: "Note.pdf", pages: 3, executionMode: "wet_sign" }, { name: "Deed.pdf", executionMode: "notarize" }],
  });
  const packet = await getTablePacket(testDb.db, { principal: pkg.manager, packageId: pkg.id });
  const pages = await printToPngs(packet.content, dir, `pk${pkg.n}`);
  return { id: pkg.id, n: pkg.n, manager: pkg.manager, note: pkg.docs[1]!, deed: pkg.docs[2]!, pages };
}

async function magick(input: string, args: string[], out: string): Promise<Uint8Array> {
  await run(CONVERT, [input, ...args, join(dir, out)]);
  return readFileSync(join(dir, out));
}

const png = (bytes: Uint8Array) => ({ bytes, contentType: "image/png" as const });
const statusOf = (report: ScanbackReport, name: string, page: number) =>
  report.pages.filter((p) => p.sourceName === name && p.sourcePage === page).map((p) => [p.status, p.documentName, p.pageNumber]);

describe("scanback upload", () => {
  it("reports every page before attaching, then attaches complete documents and takes a hand-assigned page", async () => {
    const pkg = await inkPackage();
    expect(pkg.pages).toHaveLength(5);
    const [cover, note1, note2, note3, deed1] = pkg.pages as [string, string, string, string, string];
    void note2; // left out of the scans: reported missing.

    // Upload 1: one PDF holding note page 3 turned 90°, the cover sheet and a blank page; note page 1 as PNG.
    const note3Turned = await magick(note3, ["-rotate", "90"], `n3-${pkg.n}.png`);
    const blank = new Uint8Array(await sharp({ create: { width: 1275, height: 1650, channels: 3, background: "white" } }).png().toBuffer());
    const bundle = await buildScanPdf([png(note3Turned), png(readFileSync(cover)), png(blank)]);
    const first = await uploadScanback(testDb.db, {
      principal: pkg.manager,
      packageId: pkg.id,
      files: [
        { name: "bundle.pdf", bytes: bundle },
        { name: "note-1.png", bytes: readFileSync(note1) },
      ],
    });
    expect(first.pageCount).toBe(4);
    expect(statusOf(first.report, "bundle.pdf", 1)).toEqual([["matched", "Note.pdf", 3]]);
    expect(statusOf(first.report, "bundle.pdf", 2)).toEqual([["unreadable", null, null]]);
    expect(statusOf(first.report, "bundle.pdf", 3)).toEqual([["unreadable", null, null]]);
    expect(statusOf(first.report, "note-1.png", 1)).toEqual([["matched", "Note.pdf", 1]]);
    const noteEntry = () => first.report.documents.find((d) => d.name === "Note.pdf")!;
    expect(noteEntry()).toMatchObject({ pagesFound: [1, 3], missingPages: [2], duplicatePages: [], ready: false });
    expect(first.report.documents.find((d) => d.name === "Deed.pdf")).toMatchObject({ pagesFound: [], missingPages: [1], ready: false });
    // Nothing is attached by an upload.
    expect((await testDb.db.select().from(packageDocuments).where(eq(packageDocuments.id, pkg.note.id)))[0]!.executionStatus).toBe("pending");

    // Upload 2: note page 1 again (a duplicate) and the deed upside down as a noisy JPEG.
    const deedJpeg = await magick(deed1, ["-rotate", "180", "-attenuate", "0.3", "+noise", "Gaussian", "-quality", "80"], `d1-${pkg.n}.jpg`);
    const second = await uploadScanback(testDb.db, {
      principal: pkg.manager,
      packageId: pkg.id,
      files: [
        { name: "deed.jpg", bytes: deedJpeg },
        { name: "note-1-again.png", bytes: readFileSync(note1) },
      ],
    });
    const report = second.report;
    expect(statusOf(report, "deed.jpg", 1)).toEqual([["matched", "Deed.pdf", 1]]);
    // The later upload of a page wins; the earlier one is the duplicate.
    expect(statusOf(report, "note-1.png", 1)).toEqual([["duplicate", "Note.pdf", 1]]);
    expect(statusOf(report, "note-1-again.png", 1)).toEqual([["matched", "Note.pdf", 1]]);
    expect(report.documents.find((d) => d.name === "Note.pdf")).toMatchObject({ pagesFound: [1, 3], missingPages: [2], duplicatePages: [1], ready: false });
    expect(report.documents.find((d) => d.name === "Deed.pdf")).toMatchObject({ pagesFound: [1], missingPages: [], ready: true });

    // Naming the incomplete note is refused with what is missing; accepting what is ready attaches the deed only.
    await expect(acceptScanback(testDb.db, { principal: pkg.manager, packageId: pkg.id, accept: { documentIds: [pkg.note.id] } })).rejects.toMatchObject({
      status: 409,
      message: expect.stringContaining("missing page 2"),
    });
    const accepted = await acceptScanback(testDb.db, { principal: pkg.manager, packageId: pkg.id });
    expect(accepted.attached.map((d) => [d.name, d.executionStatus])).toEqual([["Deed.pdf", "scan_uploaded"]]);
    expect(accepted.report.pages.some((p) => p.documentName === "Deed.pdf")).toBe(false);

    // The blank page stands in for note page 2 (assigned by hand); the cover sheet is discarded.
    const blankPage = accepted.report.pages.find((p) => p.sourceName === "bundle.pdf" && p.sourcePage === 3)!;
    const coverPage = accepted.report.pages.find((p) => p.sourceName === "bundle.pdf" && p.sourcePage === 2)!;
    await expect(
      assignScanbackPage(testDb.db, { principal: pkg.manager, packageId: pkg.id, pageId: blankPage.id, assignment: { documentId: pkg.note.id, pageNumber: 4 } }),
    ).rejects.toMatchObject({ status: 400 });
    await assignScanbackPage(testDb.db, { principal: pkg.manager, packageId: pkg.id, pageId: blankPage.id, assignment: { documentId: pkg.note.id, pageNumber: 2 } });
    const afterDiscard = await discardScanbackPage(testDb.db, { principal: pkg.manager, packageId: pkg.id, pageId: coverPage.id });
    expect(afterDiscard.documents.find((d) => d.name === "Note.pdf")).toMatchObject({ pagesFound: [1, 2, 3], missingPages: [], ready: true });

    const done = await acceptScanback(testDb.db, { principal: pkg.manager, packageId: pkg.id, accept: { documentIds: [pkg.note.id] } });
    expect(done.attached.map((d) => [d.name, d.executionStatus])).toEqual([["Note.pdf", "scan_uploaded"]]);
    expect(done.report.pages).toEqual([]);
    const [scan] = await testDb.db.select().from(documentScans).where(eq(documentScans.documentId, pkg.note.id));
    expect(scan?.pageCount).toBe(3);
    const scanPdf = await PDFDocument.load(await readObject(testDb.db, scan!.storageKey));
    expect(scanPdf.getPageCount()).toBe(3);
    // The turned page was stored upright: portrait, like the others.
    for (const page of scanPdf.getPages()) expect(page.getHeight()).toBeGreaterThan(page.getWidth());

    const actions = (await testDb.db.select({ action: auditLog.action }).from(auditLog).where(eq(auditLog.packageId, pkg.id))).map((r) => r.action);
    expect(actions).toEqual(expect.arrayContaining(["scanback.uploaded", "scanback.page_assigned", "scanback.page_discarded", "document.scan_uploaded"]));
  }, 120_000);

  it("refuses a page from another package: reported, never assignable", async () => {
    const mine = await inkPackage();
    const other = await inkPackage();
    const upload = await uploadScanback(testDb.db, {
      principal: mine.manager,
      packageId: mine.id,
      files: [{ name: "stray.png", bytes: readFileSync(other.pages[1]!) }],
    });
    const [page] = upload.report.pages;
    expect(page).toMatchObject({ status: "other_package", documentId: null });
    await expect(
      assignScanbackPage(testDb.db, { principal: mine.manager, packageId: mine.id, pageId: page!.id, assignment: { documentId: mine.note.id, pageNumber: 1 } }),
    ).rejects.toMatchObject({ status: 409 });
    await expect(acceptScanback(testDb.db, { principal: mine.manager, packageId: mine.id })).rejects.toMatchObject({ status: 409 });
  }, 120_000);

  it("refuses files that are not scans with 400, and too many bytes with 413", async () => {
    const pkg = await inkPackage();
    const up = (files: { name: string; bytes: Uint8Array }[]) => uploadScanback(testDb.db, { principal: pkg.manager, packageId: pkg.id, files });
    await expect(up([{ name: "notes.txt", bytes: new TextEncoder().encode("hello") }])).rejects.toMatchObject({ status: 400, message: expect.stringContaining("not a PDF, JPEG or PNG") });
    await expect(up([{ name: "broken.png", bytes: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]) }])).rejects.toMatchObject({ status: 400 });
    await expect(up([])).rejects.toMatchObject({ status: 400 });
    await expect(up([{ name: "big.png", bytes: new Uint8Array(11 * 1024 * 1024) }])).rejects.toMatchObject({ status: 413, message: `The scans are ${11 * 1024 * 1024} bytes together; the limit of one upload is 10 MiB (10485760 bytes): upload them in several parts.` });
  }, 120_000);
});
