import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { processScanbackScanJob } from "@/lib/closings/process-scanback-scan-job";
import { createJobRegistry } from "@/lib/jobs/create-job-registry";
import { runDueJobs } from "@/lib/job-runner/run-due-jobs";
import { renderAgreementPdf } from "@/lib/pdf/pdf";
import { fetchApi, tokenFor } from "../helpers/api";
import { createTestDb, type TestDb } from "../helpers/db";
import { auditEntriesFor } from "../helpers/fixtures";
import { as, BASE, loadManagerWorld, SigningJson } from "../helpers/manager";
import { ErrorBody } from "../helpers/schemas";

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), "closing-api-"));
const MANAGER = "manager@demo.local";

const Mode = z.enum(["esign", "wet_sign", "notarize", "review_only"]);
const State = z.enum(["pending", "esigned", "scan_uploaded", "accepted", "rejected", "acknowledged"]);
const iso = z.iso.datetime();
const Execution = z.strictObject({ id: z.uuid(), name: z.string(), executionMode: Mode, executionStatus: State });
const Closing = z.strictObject({
  packageId: z.uuid(),
  closingAt: iso.nullable(),
  closingPlace: z.string().nullable(),
  settlementAgent: z.string().nullable(),
  esignOpensAt: iso.nullable(),
  summary: z.strictObject({
    esigned: z.number().int(),
    toESign: z.number().int(),
    atTable: z.number().int(),
    scanToReview: z.number().int(),
    accepted: z.number().int(),
    rejected: z.number().int(),
    toRead: z.number().int(),
    acknowledged: z.number().int(),
    text: z.string(),
  }),
  documents: z.array(
    z.strictObject({
      id: z.uuid(),
      name: z.string(),
      pageCount: z.number().int(),
      executionMode: Mode,
      executionStatus: State,
      scan: z
        .strictObject({ sha256: z.string().regex(/^[0-9a-f]{64}$/), pageCount: z.number().int(), uploadedAt: iso, reviewedAt: iso.nullable(), reviewedBy: z.string().nullable(), rejectReason: z.string().nullable() })
        .nullable(),
    }),
  ),
});
const Report = z.strictObject({
  packageId: z.uuid(),
  pages: z.array(
    z.strictObject({
      id: z.uuid(),
      uploadId: z.uuid(),
      sourceName: z.string(),
      sourcePage: z.number().int(),
      status: z.enum(["matched", "assigned", "duplicate", "other_package", "unreadable"]),
      documentId: z.uuid().nullable(),
      documentName: z.string().nullable(),
      pageNumber: z.number().int().nullable(),
      uploadedAt: iso,
    }),
  ),
  documents: z.array(
    z.strictObject({
      id: z.uuid(),
      name: z.string(),
      executionMode: Mode,
      executionStatus: State,
      pageCount: z.number().int(),
      pagesFound: z.array(z.number().int()),
      missingPages: z.array(z.number().int()),
      duplicatePages: z.array(z.number().int()),
      ready: z.boolean(),
    }),
  ),
});
const Scan = z.strictObject({
  id: z.uuid(),
  uploadId: z.uuid(),
  status: z.enum(["queued", "processing", "done", "failed"]),
  totalPages: z.number().int(),
  processedPages: z.number().int(),
  error: z.string().nullable(),
  createdAt: iso,
  finishedAt: iso.nullable(),
  statusUrl: z.string(),
});
const UploadResult = z.strictObject({ uploadId: z.uuid(), pageCount: z.number().int(), scan: Scan, report: Report });
const ScanResult = z.strictObject({ scan: Scan, report: Report });
const AcceptResult = z.strictObject({ attached: z.array(Execution), report: Report });

let testDb: TestDb;
let world: Awaited<ReturnType<typeof loadManagerWorld>>;

beforeAll(async () => {
  testDb = await createTestDb();
  world = await loadManagerWorld(testDb.db);
}, 120_000);
afterAll(() => testDb.cleanup());

const base64 = async (title: string, pages = 1) => Buffer.from(await renderAgreementPdf({ title, parties: ["Borrower"], pages })).toString("base64");
const url = (id: string, rest = "") => `${BASE}/signings/${id}${rest}`;

async function createHybrid() {
  const res = await as(MANAGER, `${BASE}/signings`, {
    json: {
      locationId: world.austin.id,
      title: "Hybrid over /v1",
      signers: [{ name: "Bo Rower", email: "borrower-api@demo.local" }],
      documents: [
        { name: "Disclosure A.pdf", contentBase64: await base64("Disclosure A") },
        { name: "Disclosure B.pdf", contentBase64: await base64("Disclosure B") },
        { name: "Note.pdf", contentBase64: await base64("Note", 2), executionMode: "wet_sign" },
        { name: "Booklet.pdf", contentBase64: await base64("Booklet"), executionMode: "review_only" },
      ],
      appointment: { closingAt: "2026-12-01T15:00:00Z", closingPlace: "Title office, 1 Main St", settlementAgent: "Sam Agent" },
    },
  });
  expect(res.status).toBe(201);
  return SigningJson.parse(res.body).id;
}

describe("hybrid closings over /v1", () => {
  it("creates modes and appointment, downloads the packet, uploads scans, assigns, accepts, reviews and converts", async () => {
    const id = await createHybrid();
    const closing = Closing.parse((await as(MANAGER, url(id, "/closing"))).body);
    expect(closing).toMatchObject({ closingAt: "2026-12-01T15:00:00.000Z", closingPlace: "Title office, 1 Main St", settlementAgent: "Sam Agent", esignOpensAt: null });
    expect(closing.documents.map((d) => [d.name, d.executionMode, d.executionStatus])).toEqual([
      ["Disclosure A.pdf", "esign", "pending"],
      ["Disclosure B.pdf", "esign", "pending"],
      ["Note.pdf", "wet_sign", "pending"],
      ["Booklet.pdf", "review_only", "pending"],
    ]);
    expect(closing.summary.text).toBe("2 to e-sign · 1 at the table · 1 to read");
    const [, discB, note] = closing.documents;

    // Modes change on a draft only; a bad mode is 400.
    const bad = await as(MANAGER, url(id, `/documents/${discB!.id}/execution`), { method: "PATCH", json: { executionMode: "fax" } });
    expect(bad.status).toBe(400);
    ErrorBody.parse(bad.body);
    const notarize = await as(MANAGER, url(id, `/documents/${discB!.id}/execution`), { method: "PATCH", json: { executionMode: "notarize" } });
    expect(Execution.parse(notarize.body)).toMatchObject({ executionMode: "notarize", executionStatus: "pending" });
    expect((await as(MANAGER, url(id, `/documents/${discB!.id}/execution`), { method: "PATCH", json: { executionMode: "esign" } })).status).toBe(200);

    const patched = await as(MANAGER, url(id, "/closing"), { method: "PATCH", json: { closingPlace: "Branch 2", esignOpensAt: "2026-11-20T00:00:00Z" } });
    expect(Closing.parse(patched.body)).toMatchObject({ closingPlace: "Branch 2", settlementAgent: "Sam Agent", esignOpensAt: "2026-11-20T00:00:00.000Z" });
    expect((await as(MANAGER, url(id, "/closing"), { method: "PATCH", json: { closingAt: "tomorrow" } })).status).toBe(400);
    expect((await as(MANAGER, url(id, "/closing"), { method: "PATCH", json: {} })).status).toBe(400);

    expect((await as(MANAGER, url(id, "/send"), { method: "POST" })).status).toBe(200);
    expect((await as(MANAGER, url(id, `/documents/${discB!.id}/execution`), { method: "PATCH", json: { executionMode: "wet_sign" } })).status).toBe(409);

    // The packet, printed to PNGs: cover, note 1, note 2.
    const packet = await getRaw(url(id, "/table-packet"));
    expect(packet.status).toBe(200);
    expect(packet.headers.get("content-type")).toBe("application/pdf");
    const raw = new Uint8Array(await packet.arrayBuffer());
    writeFileSync(join(dir, "packet.pdf"), raw);
    await run("pdftoppm", ["-r", "150", "-gray", "-png", join(dir, "packet.pdf"), join(dir, "pk")]);
    const pages = readdirSync(dir).filter((f) => f.startsWith("pk-")).sort().map((f) => readFileSync(join(dir, f)));
    expect(pages).toHaveLength(3);

    // Upload: note page 2 and the cover sheet (unreadable); page 1 is missing.
    const form = new FormData();
    form.append("files", new File([pages[2]!], "note-2.png", { type: "image/png" }));
    form.append("files", new File([pages[0]!], "cover.png", { type: "image/png" }));
    const uploaded = await as(MANAGER, url(id, "/scanbacks"), { body: form });
    expect(uploaded.status).toBe(201);
    const first = UploadResult.parse(uploaded.body);
    expect(first.pageCount).toBe(2);
    expect(first.report.pages.map((p) => [p.sourceName, p.status, p.pageNumber])).toEqual([
      ["cover.png", "unreadable", null],
      ["note-2.png", "matched", 2],
    ]);
    expect(first.report.documents).toEqual([expect.objectContaining({ name: "Note.pdf", pagesFound: [2], missingPages: [1], ready: false })]);
    const accept409 = await as(MANAGER, url(id, "/scanbacks/accept"), { json: {} });
    expect(accept409.status).toBe(409);
    ErrorBody.parse(accept409.body);

    // The cover page is assigned by hand as page 1 (the wrong page, so the review rejects it), then accepted.
    const cover = first.report.pages.find((p) => p.sourceName === "cover.png")!;
    const image = await as(MANAGER, url(id, `/scanbacks/pages/${cover.id}/image`));
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toBe("image/png");
    expect((await as(MANAGER, url(id, `/scanbacks/pages/${cover.id}`), { method: "PUT", json: { documentId: note!.id, pageNumber: 3 } })).status).toBe(400);
    expect((await as(MANAGER, url(id, `/scanbacks/pages/${cover.id}`), { method: "PUT", json: { documentId: note!.id, pageNumber: "one" } })).status).toBe(400);
    expect((await as(MANAGER, url(id, `/scanbacks/pages/${cover.id}`), { method: "PUT", json: { documentId: note!.id, pageNumber: 1, rotation: 45 } })).status).toBe(400);
    const assigned = await as(MANAGER, url(id, `/scanbacks/pages/${cover.id}`), { method: "PUT", json: { documentId: note!.id, pageNumber: 1 } });
    expect(Report.parse(assigned.body).documents[0]).toMatchObject({ pagesFound: [1, 2], ready: true });
    const accepted = await as(MANAGER, url(id, "/scanbacks/accept"), { json: { documentIds: [note!.id] } });
    expect(accepted.status).toBe(200);
    expect(AcceptResult.parse(accepted.body)).toMatchObject({ attached: [{ name: "Note.pdf", executionStatus: "scan_uploaded" }], report: { pages: [] } });

    const noReason = await as(MANAGER, url(id, `/documents/${note!.id}/scan-review`), { json: { decision: "reject" } });
    expect(noReason.status).toBe(400);
    ErrorBody.parse(noReason.body);
    const rejected = await as(MANAGER, url(id, `/documents/${note!.id}/scan-review`), { json: { decision: "reject", reason: "Page 1 is the cover sheet" } });
    expect(Execution.parse(rejected.body)).toMatchObject({ executionStatus: "rejected" });
    const after = Closing.parse((await as(MANAGER, url(id, "/closing"))).body);
    expect(after.documents[2]!.scan).toMatchObject({ rejectReason: "Page 1 is the cover sheet", reviewedBy: expect.any(String), pageCount: 2 });
    expect(after.summary.text).toBe("2 to e-sign · 1 scan rejected · 1 to read");

    // Convert to ink: both disclosures become wet_sign.
    const converted = await as(MANAGER, url(id, "/convert-to-ink"), { method: "POST" });
    expect(converted.status).toBe(200);
    expect(z.strictObject({ converted: z.array(Execution) }).parse(converted.body).converted.map((d) => [d.name, d.executionMode])).toEqual([
      ["Disclosure A.pdf", "wet_sign"],
      ["Disclosure B.pdf", "wet_sign"],
    ]);
    const actions = (await auditEntriesFor(testDb.db, id)).map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(["signing.appointment_updated", "scanback.uploaded", "scanback.page_assigned", "document.rejected", "document.converted_to_ink"]));
  }, 120_000);

  it("answers a scan of more than 10 pages 202 with its status URL, which shows the pages read and then the report", async () => {
    const id = await createHybrid();
    expect((await as(MANAGER, url(id, "/send"), { method: "POST" })).status).toBe(200);
    const packet = new Uint8Array(await (await getRaw(url(id, "/table-packet"))).arrayBuffer());
    writeFileSync(join(dir, "big.pdf"), packet);
    await run("pdftoppm", ["-r", "100", "-gray", "-png", join(dir, "big.pdf"), join(dir, "big")]);
    const [cover, note1, note2] = readdirSync(dir).filter((f) => f.startsWith("big-")).sort().map((f) => readFileSync(join(dir, f)));
    // Twelve images: the two note pages, then the cover ten times.
    const form = new FormData();
    for (const [i, bytes] of [note1!, note2!, ...Array(10).fill(cover!)].entries()) form.append("files", new File([bytes], `p${i + 1}.png`, { type: "image/png" }));
    const uploaded = await as(MANAGER, url(id, "/scanbacks"), { body: form });
    expect(uploaded.status).toBe(202);
    const queued = UploadResult.parse(uploaded.body);
    expect(queued.scan).toMatchObject({ status: "queued", totalPages: 12, processedPages: 0, statusUrl: url(id, `/scanbacks/scans/${queued.scan.id}`) });
    expect(uploaded.headers.get("location")).toBe(queued.scan.statusUrl);
    expect(queued.report.pages).toEqual([]);

    const registry = createJobRegistry([processScanbackScanJob]);
    expect(await runDueJobs(testDb.db, { workerId: "api-test", registry })).toMatchObject({ claimed: 1, succeeded: 1 });
    const halfway = await as(MANAGER, queued.scan.statusUrl);
    expect(halfway.status).toBe(200);
    expect(ScanResult.parse(halfway.body).scan).toMatchObject({ status: "processing", processedPages: 10, totalPages: 12 });
    expect(await runDueJobs(testDb.db, { workerId: "api-test", registry })).toMatchObject({ claimed: 1, succeeded: 1 });
    const done = ScanResult.parse((await as(MANAGER, queued.scan.statusUrl)).body);
    expect(done.scan).toMatchObject({ status: "done", processedPages: 12 });
    expect(done.report.documents).toEqual([expect.objectContaining({ name: "Note.pdf", pagesFound: [1, 2], ready: true })]);
    expect(done.report.pages.filter((p) => p.status === "unreadable")).toHaveLength(10);

    expect((await as(MANAGER, url(id, "/scanbacks/scans/not-a-uuid"))).status).toBe(404);
    expect((await as(MANAGER, url(id, `/scanbacks/scans/${id}`))).status).toBe(404);
    expect((await as("manager@other.local", queued.scan.statusUrl)).status).toBe(404);
    expect((await as(null, queued.scan.statusUrl)).status).toBe(401);
  }, 120_000);

  it("refuses what is not a scan upload, and reaches nothing outside the caller's scope", async () => {
    const id = await createHybrid();
    const draftUpload = await as(MANAGER, url(id, "/scanbacks?name=x.png"), { body: "x", headers: { "content-type": "image/png" } });
    expect(draftUpload.status).toBe(409);
    expect(draftUpload.body).toMatchObject({ reason: "package_closed" });
    expect((await as(MANAGER, url(id, "/send"), { method: "POST" })).status).toBe(200);
    const wrongType = await as(MANAGER, url(id, "/scanbacks"), { body: "hi", headers: { "content-type": "text/plain" } });
    expect(wrongType.status).toBe(400);
    ErrorBody.parse(wrongType.body);
    const empty = new FormData();
    empty.append("other", "x");
    expect((await as(MANAGER, url(id, "/scanbacks"), { body: empty })).status).toBe(400);
    const notImage = await as(MANAGER, url(id, "/scanbacks?name=x.png"), { body: "not an image", headers: { "content-type": "image/png" } });
    expect(notImage.status).toBe(400);
    expect((await as(MANAGER, url(id, "/scanbacks"), { body: new Uint8Array(11 * 1024 * 1024), headers: { "content-type": "image/png" } })).status).toBe(413);
    expect((await as(MANAGER, url(id, "/scanbacks/pages/not-a-uuid"), { method: "DELETE" })).status).toBe(404);
    // A manager of another location sees no such package.
    expect((await as("manager@other.local", url(id, "/closing"))).status).toBe(404);
    expect((await as("manager@other.local", url(id, "/table-packet"))).status).toBe(404);
    expect((await as(null, url(id, "/closing"))).status).toBe(401);
  }, 60_000);

  it("describes the routes in the OpenAPI document", async () => {
    const doc = (await as(MANAGER, "/v1/openapi.json")).body as { paths: Record<string, unknown> };
    for (const path of ["/closing", "/table-packet", "/scanbacks", "/scanbacks/accept", "/scanbacks/pages/{pageId}", "/scanbacks/scans/{scanId}", "/documents/{docId}/scan-review", "/documents/{docId}/execution", "/convert-to-ink"]) {
      expect(doc.paths).toHaveProperty([`/v1/signing/manager/signings/{id}${path}`]);
    }
  });
});

async function getRaw(path: string): Promise<Response> {
  return fetchApi(new Request(`http://core-api.test${path}`, { headers: { authorization: `Bearer ${await tokenFor(MANAGER, 600)}` } }));
}
