import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { packageDocuments, signingPackages, users } from "@/db/schema";
import { getTablePacket } from "@/lib/closings/get-table-packet";
import { getSignerClosingPlan } from "@/lib/closings/get-signer-closing-plan";
import { localSubjectForEmail } from "@/lib/auth/local-tokens";
import { resolvePrincipal } from "@/lib/auth/principal";
import { renderAgreementPdf } from "@/lib/pdf/pdf";
import { createSigning } from "@/lib/signings/create-signing";
import { inNextRequestScope } from "@/tests/helpers/next-request-scope";
import { createTestDb, type TestDb } from "../helpers/db";
import { loadDemoWorld, type DemoWorld } from "../helpers/fixtures";
import { ensureUser, managerOf } from "../helpers/signing-fixtures";

// The closing page's server actions (app/(manager)/signings/[id]/closing/actions.ts), called with the
// FormData a browser posts inside a Next request scope; only the session lookup and revalidatePath are replaced.
const session = vi.hoisted(() => ({ userId: null as string | null }));
vi.mock("next-auth", async (importOriginal) => ({
  ...(await importOriginal<typeof import("next-auth")>()),
  getServerSession: async () => (session.userId ? { user: { id: session.userId, name: "", email: "" } } : null),
}));
vi.mock("next/cache", async (importOriginal) => ({
  ...(await importOriginal<typeof import("next/cache")>()),
  revalidatePath: () => undefined,
}));

const actions = await import("@/app/(manager)/signings/[id]/closing/actions");
const { acknowledgeAction } = await import("@/app/(signer)/signings/[id]/acknowledge-action");
const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), "closing-actions-"));

let testDb: TestDb;
let world: DemoWorld;

beforeAll(async () => {
  testDb = await createTestDb();
  world = await loadDemoWorld(testDb.db);
  const [user] = await testDb.db.select({ id: users.id }).from(users).where(eq(users.email, "manager@demo.local"));
  session.userId = user!.id;
}, 120_000);
afterAll(() => testDb.cleanup());

function post(action: (previous: never, formData: FormData) => Promise<unknown>, fields: Record<string, string | File | string[]>) {
  const formData = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (Array.isArray(value)) value.forEach((v) => formData.append(name, v));
    else formData.append(name, value);
  }
  return inNextRequestScope(new Request("http://localhost:3000/signings/x/closing", { method: "POST" }), () => action({ status: "idle" } as never, formData)) as Promise<{
    status: string;
    message?: string;
  }>;
}

describe("closing page actions", () => {
  it("sets modes and the appointment on a draft, uploads scans, attaches, rejects without and with a reason", async () => {
    const manager = await managerOf(testDb.db, world.austin.organizationId);
    await ensureUser(testDb.db, "closing-actions@demo.local");
    const pdf = (title: string, pages = 1) => renderAgreementPdf({ title, parties: ["Borrower"], pages });
    const created = await createSigning(testDb.db, {
      principal: manager,
      locationId: world.austin.id,
      title: "Closing actions",
      signers: [{ name: "Bo Rower", email: "closing-actions@demo.local" }],
      documents: [
        { name: "Disclosure.pdf", bytes: await pdf("Disclosure") },
        { name: "Note.pdf", bytes: await pdf("Note") },
      ],
    });
    const id = created.id;
    const docs = await testDb.db.select().from(packageDocuments).where(eq(packageDocuments.packageId, id)).orderBy(asc(packageDocuments.position));
    const note = docs[1]!;

    const modes = await post(actions.executionModesAction, { signingId: id, [`mode.${note.id}`]: "wet_sign", [`was.${note.id}`]: "esign", [`mode.${docs[0]!.id}`]: "esign", [`was.${docs[0]!.id}`]: "esign" });
    expect(modes).toEqual({ status: "ok", message: "Saved how 1 document is signed." });
    const bad = await post(actions.appointmentAction, { signingId: id, closingAt: "next tuesday" });
    expect(bad).toMatchObject({ status: "error", message: expect.stringContaining("UTC") });
    expect(await post(actions.appointmentAction, { signingId: id, closingAt: "2026-12-01T15:00", closingPlace: "Title office", settlementAgent: "", esignOpensAt: "" })).toEqual({
      status: "ok",
      message: "Appointment saved.",
    });
    const [row] = await testDb.db.select().from(signingPackages).where(eq(signingPackages.id, id));
    expect(row).toMatchObject({ closingAt: new Date("2026-12-01T15:00:00Z"), closingPlace: "Title office", settlementAgent: null });

    // A draft takes no scans.
    const early = await post(actions.uploadScansAction, { signingId: id, files: new File([new Uint8Array([1])], "x.png") });
    expect(early).toMatchObject({ status: "error", message: expect.stringContaining("draft") });

    const { sendSigning } = await import("@/lib/signings/send-signing");
    await sendSigning(testDb.db, { principal: manager, packageId: id });
    const packet = await getTablePacket(testDb.db, { principal: manager, packageId: id });
    writeFileSync(join(dir, "packet.pdf"), packet.content);
    await run("pdftoppm", ["-r", "150", "-gray", "-png", join(dir, "packet.pdf"), join(dir, "pk")]);
    const pages = readdirSync(dir).filter((f) => f.startsWith("pk-")).sort();
    const notePage = new File([readFileSync(join(dir, pages[1]!))], "note.png", { type: "image/png" });

    expect(await post(actions.acceptScansAction, { signingId: id })).toMatchObject({ status: "error", message: expect.stringContaining("No document has all its pages") });
    expect(await post(actions.uploadScansAction, { signingId: id, files: notePage })).toEqual({ status: "ok", message: "Read 1 page: 1 matched. Check the report below, then attach." });
    expect(await post(actions.acceptScansAction, { signingId: id })).toEqual({ status: "ok", message: "Attached Note.pdf; it awaits your review." });
    expect(await post(actions.reviewScanAction, { signingId: id, documentId: note.id, decision: "reject", reason: "" })).toMatchObject({
      status: "error",
      message: expect.stringContaining("Give a reason"),
    });
    expect(await post(actions.reviewScanAction, { signingId: id, documentId: note.id, decision: "reject", reason: "Unsigned" })).toEqual({
      status: "ok",
      message: "Scan of Note.pdf rejected; upload a new scan of it.",
    });
    expect(await post(actions.convertToInkAction, { signingId: id })).toEqual({ status: "ok", message: "Disclosure.pdf will be signed in ink at the table; download the packet again." });
  }, 120_000);

  it("tells the signer what is e-signed now, what is signed at the table and what is only to read, and takes the acknowledgement", async () => {
    const manager = await managerOf(testDb.db, world.austin.organizationId);
    const borrower = await ensureUser(testDb.db, "closing-plan@demo.local");
    const pdf = (title: string) => renderAgreementPdf({ title, parties: ["Borrower"], pages: 1 });
    const created = await createSigning(testDb.db, {
      principal: manager,
      locationId: world.austin.id,
      title: "Closing plan",
      signers: [{ name: "Bo Rower", email: "closing-plan@demo.local" }],
      documents: [
        { name: "Disclosure.pdf", bytes: await pdf("Disclosure") },
        { name: "Deed.pdf", bytes: await pdf("Deed"), executionMode: "notarize" },
        { name: "Booklet.pdf", bytes: await pdf("Booklet"), executionMode: "review_only" },
      ],
      appointment: { closingAt: "2026-12-01T15:00:00Z", closingPlace: "Title office", settlementAgent: "Sam Agent" },
    });
    const { sendSigning } = await import("@/lib/signings/send-signing");
    await sendSigning(testDb.db, { principal: manager, packageId: created.id });
    const signer = await resolvePrincipal(testDb.db, localSubjectForEmail("closing-plan@demo.local"));
    const plan = await getSignerClosingPlan(testDb.db, { principal: signer, packageId: created.id });
    expect(plan).toMatchObject({
      hybrid: true,
      closingPlace: "Title office",
      esign: [{ name: "Disclosure.pdf", done: false }],
      atTable: [{ name: "Deed.pdf", notarized: true, done: false }],
      toRead: [{ name: "Booklet.pdf", acknowledged: false }],
    });
    session.userId = borrower.id;
    try {
      const booklet = plan.toRead[0]!;
      expect(await post(acknowledgeAction, { signingId: created.id, documentId: booklet.id })).toEqual({ status: "ok", message: "You confirmed you received Booklet.pdf." });
      expect((await getSignerClosingPlan(testDb.db, { principal: signer, packageId: created.id })).toRead).toEqual([{ id: booklet.id, name: "Booklet.pdf", acknowledged: true }]);
      // A document that is signed, not read, cannot be acknowledged.
      expect(await post(acknowledgeAction, { signingId: created.id, documentId: plan.atTable[0]!.id })).toMatchObject({ status: "error", message: expect.stringContaining("review-only") });
    } finally {
      const [user] = await testDb.db.select({ id: users.id }).from(users).where(eq(users.email, "manager@demo.local"));
      session.userId = user!.id;
    }
  }, 120_000);
});
