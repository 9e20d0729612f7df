import { randomUUID } from "node:crypto";
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { asc, eq, inArray } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { auditLog, packageDocuments, scanbackPages, signingPackages, users } from "@/db/schema";
import { NewPackageSignerSchema } from "@/lib/api/schemas/signers";
import { getTablePacket } from "@/lib/closings/get-table-packet";
import { assignScanbackPage, uploadScanback } from "@/lib/closings/scanback";
import { renderAgreementPdf } from "@/lib/pdf/pdf";
import { createSigning } from "@/lib/signings/create-signing";
import { createSigningsFromCsv } from "@/lib/signings/create-signings-from-csv";
import { sendSigning } from "@/lib/signings/send-signing";
import { addTemplateDocument } from "@/lib/templates/add-template-document";
import { createTemplate } from "@/lib/templates/create-template";
import { getTemplateDetail } from "@/lib/templates/get-template-detail";
import { setTemplateDocumentExecutionMode } from "@/lib/templates/set-template-document-execution-mode";
import { inNextRequestScope } from "@/tests/helpers/next-request-scope";
import { createTestDb, type TestDb } from "../helpers/db";
import { loadDemoWorld, type DemoWorld } from "../helpers/fixtures";
import { ensureUser, managerOf } from "../helpers/signing-fixtures";
import { readObject } from "@/lib/storage/objects";

// Hybrid closings outside the Closing page (docs/hybrid-closings.md): the package form's mode per
// document and appointment, the bulk CSV's document_modes column, template documents' default mode,
// and the rotation of a scanned page assigned by hand. Forms are posted as a browser posts them.
const session = vi.hoisted(() => ({ userId: null as string | null }));
vi.mock("next-auth", async (importOriginal) => ({
  ...(await importOriginal<typeof import("next-auth")>()),
  getServerSession: async () => (session.userId ? { user: { id: session.userId, name: "", email: "" } } : null),
}));
vi.mock("next/cache", async (importOriginal) => ({
  ...(await importOriginal<typeof import("next/cache")>()),
  revalidatePath: () => undefined,
}));

const { signingFormAction } = await import("@/app/(manager)/signings/_signing-form/actions");
const { setTemplateDocumentModeAction } = await import("@/app/(manager)/templates/actions");
const { assignPageAction } = await import("@/app/(manager)/signings/[id]/closing/actions");

const run = promisify(execFile);
const CONVERT = existsSync("/usr/bin/convert") ? "/usr/bin/convert" : "convert";
const dir = mkdtempSync(join(tmpdir(), "hybrid-forms-"));

let testDb: TestDb;
let world: DemoWorld;

beforeAll(async () => {
  testDb = await createTestDb();
  world = await loadDemoWorld(testDb.db);
  const [user] = await testDb.db.select({ id: users.id }).from(users).where(eq(users.email, "manager@demo.local"));
  session.userId = user!.id;
}, 120_000);
afterAll(() => testDb.cleanup());

type State = { status: string; message?: string; fieldErrors?: Record<string, string>; values?: Record<string, string> };

async function post(action: (previous: never, formData: FormData) => Promise<unknown>, fields: [string, string | File][], path = "/signings/new") {
  const formData = new FormData();
  for (const [name, value] of fields) formData.append(name, value);
  try {
    return { state: (await inNextRequestScope(new Request(`http://localhost:3000${path}`, { method: "POST" }), () => action({ status: "idle" } as never, formData))) as State };
  } catch (error) {
    const digest = (error as { digest?: string }).digest;
    if (typeof digest === "string" && digest.startsWith("NEXT_REDIRECT")) return { redirect: digest.split(";")[2]! };
    throw error;
  }
}

const pdfFile = async (name: string, pages = 1) => new File([(await renderAgreementPdf({ title: name, parties: ["Borrower"], pages })) as Uint8Array<ArrayBuffer>], name, { type: "application/pdf" });

const documentsOf = (packageId: string) =>
  testDb.db.select().from(packageDocuments).where(eq(packageDocuments.packageId, packageId)).orderBy(asc(packageDocuments.position));
const packagesTitled = (...titles: string[]) => testDb.db.select().from(signingPackages).where(inArray(signingPackages.title, titles));

const signer: [string, string][] = [
  ["signers.0.name", "Hy Brid"],
  ["signers.0.email", "hy.brid@example.test"],
  ["signers.0.role", "signer"],
  ["signers.0.routingOrder", "1"],
];

describe("package form: execution mode per document and the closing appointment", () => {
  it("creates a draft whose added PDFs carry the chosen modes and the appointment (UTC)", async () => {
    const saved = await post(signingFormAction, [
      ["locationId", String(world.austin.id)],
      ["title", "Form hybrid"],
      ["intent", "save"],
      ...signer,
      ["files", await pdfFile("Disclosure.pdf")],
      ["files", await pdfFile("Note.pdf", 2)],
      ["files", await pdfFile("Booklet.pdf")],
      ["fileModes", "esign"],
      ["fileModes", "wet_sign"],
      ["fileModes", "review_only"],
      ["closingAt", "2026-12-03T16:30"],
      ["esignOpensAt", "2026-12-01T09:00"],
      ["closingPlace", "Title office, 1 Main St"],
      ["settlementAgent", "Ana Ruiz, ana@title.example"],
    ]);
    expect(saved.redirect).toMatch(/^\/signings\/[0-9a-f-]{36}\/edit\?saved=1$/);
    const [pkg] = await packagesTitled("Form hybrid");
    expect(pkg).toMatchObject({
      closingAt: new Date("2026-12-03T16:30:00Z"),
      esignOpensAt: new Date("2026-12-01T09:00:00Z"),
      closingPlace: "Title office, 1 Main St",
      settlementAgent: "Ana Ruiz, ana@title.example",
    });
    expect((await documentsOf(pkg!.id)).map((d) => [d.name, d.executionMode])).toEqual([
      ["Disclosure.pdf", "esign"],
      ["Note.pdf", "wet_sign"],
      ["Booklet.pdf", "review_only"],
    ]);
  }, 60_000);

  it("before hydration one choice applies to every added PDF", async () => {
    const saved = await post(signingFormAction, [
      ["locationId", String(world.austin.id)],
      ["title", "Form one mode"],
      ["intent", "save"],
      ...signer,
      ["files", await pdfFile("Deed.pdf")],
      ["files", await pdfFile("Mortgage.pdf")],
      ["fileModes", "notarize"],
    ]);
    expect(saved.redirect).toBeDefined();
    const [pkg] = await packagesTitled("Form one mode");
    expect((await documentsOf(pkg!.id)).map((d) => d.executionMode)).toEqual(["notarize", "notarize"]);
    expect(pkg!.closingAt).toBeNull();
  }, 60_000);

  it("refuses an unknown mode or a malformed time with the field's error, keeps what was typed and creates nothing", async () => {
    const badMode = await post(signingFormAction, [
      ["locationId", String(world.austin.id)],
      ["title", "Form bad mode"],
      ["intent", "save"],
      ...signer,
      ["files", await pdfFile("Note.pdf")],
      ["fileModes", "paper"],
      ["closingPlace", "Kept place"],
    ]);
    expect(badMode.state).toMatchObject({ status: "error", fieldErrors: { "fileModes.0": expect.stringContaining("wet_sign") } });
    expect(badMode.state!.values).toMatchObject({ title: "Form bad mode", fileModes: "paper", closingPlace: "Kept place" });
    const badTime = await post(signingFormAction, [
      ["locationId", String(world.austin.id)],
      ["title", "Form bad time"],
      ["intent", "save"],
      ...signer,
      ["closingAt", "next tuesday"],
    ]);
    expect(badTime.state).toMatchObject({ status: "error", fieldErrors: { "appointment.closingAt": expect.any(String) }, values: { closingAt: "next tuesday" } });
    expect(await packagesTitled("Form bad mode", "Form bad time")).toEqual([]);
  }, 60_000);

  it("on a draft, changes an attached document's mode and the appointment, and clears a field left empty", async () => {
    const manager = await managerOf(testDb.db, world.austin.organizationId);
    const draft = await createSigning(testDb.db, {
      principal: manager,
      locationId: world.austin.id,
      title: "Form draft edit",
      signers: [{ name: "Ed It", email: "ed.it@example.test" }],
      documents: [{ name: "Note.pdf", bytes: new Uint8Array(await (await pdfFile("Note.pdf")).arrayBuffer()) }],
      appointment: { closingAt: "2026-12-01T15:00:00Z", settlementAgent: "Old agent" },
    });
    const [note] = await documentsOf(draft.id);
    const [existing] = await testDb.db.select().from(signingPackages).where(eq(signingPackages.id, draft.id));
    const signerId = (await testDb.db.query.packageSigners.findFirst({ where: (s, { eq: equals }) => equals(s.packageId, draft.id) }))!.id;
    const saved = await post(
      signingFormAction,
      [
        ["signingId", draft.id],
        ["locationId", String(existing!.locationId)],
        ["title", "Form draft edit"],
        ["intent", "save"],
        ["signers.0.id", signerId],
        ["signers.0.name", "Ed It"],
        ["signers.0.email", "ed.it@example.test"],
        ["signers.0.role", "signer"],
        ["signers.0.routingOrder", "1"],
        [`documentMode.${note!.id}`, "wet_sign"],
        ["closingAt", "2026-12-02T10:00"],
        ["closingPlace", "Branch"],
        ["settlementAgent", ""],
        ["esignOpensAt", ""],
      ],
      `/signings/${draft.id}/edit`,
    );
    expect(saved.redirect).toBe(`/signings/${draft.id}/edit?saved=1`);
    expect((await documentsOf(draft.id))[0]!.executionMode).toBe("wet_sign");
    const [after] = await testDb.db.select().from(signingPackages).where(eq(signingPackages.id, draft.id));
    expect(after).toMatchObject({ closingAt: new Date("2026-12-02T10:00:00Z"), closingPlace: "Branch", settlementAgent: null });
    const actions = (await testDb.db.select({ action: auditLog.action }).from(auditLog).where(eq(auditLog.packageId, draft.id))).map((a) => a.action);
    expect(actions).toEqual(expect.arrayContaining(["document.execution_mode_changed", "signing.appointment_updated"]));
  }, 60_000);
});

describe("templates: a default mode per document, copied into packages", () => {
  it("copies the template's modes into a package, and the form may change them for the new package", async () => {
    const manager = await managerOf(testDb.db, world.austin.organizationId);
    const template = await createTemplate(testDb.db, { principal: manager, organizationId: world.austin.organizationId, name: "Hybrid template", roles: [] });
    const bytes = async (name: string) => new Uint8Array(await (await pdfFile(name)).arrayBuffer());
    await addTemplateDocument(testDb.db, { principal: manager, templateId: template.id, name: "Disclosure.pdf", bytes: await bytes("Disclosure.pdf") });
    const note = await addTemplateDocument(testDb.db, { principal: manager, templateId: template.id, name: "Note.pdf", bytes: await bytes("Note.pdf"), executionMode: "wet_sign" });
    const booklet = await addTemplateDocument(testDb.db, { principal: manager, templateId: template.id, name: "Booklet.pdf", bytes: await bytes("Booklet.pdf") });
    // The template page's form: the same schema as PATCH /v1/…/templates/{id}/documents/{docId}.
    const set = await post(setTemplateDocumentModeAction.bind(null, template.id, booklet.id) as never, [["executionMode", "review_only"]], `/templates/${template.id}`);
    expect(set.state).toEqual({ status: "ok", message: "Booklet.pdf: Read only." });
    const refused = await post(setTemplateDocumentModeAction.bind(null, template.id, booklet.id) as never, [["executionMode", "fax"]], `/templates/${template.id}`);
    expect(refused.state).toMatchObject({ status: "error", fieldErrors: { executionMode: expect.any(String) } });
    expect((await getTemplateDetail(testDb.db, { principal: manager, templateId: template.id })).documents.map((d) => [d.name, d.executionMode])).toEqual([
      ["Disclosure.pdf", "esign"],
      ["Note.pdf", "wet_sign"],
      ["Booklet.pdf", "review_only"],
    ]);

    const copied = await createSigning(testDb.db, { principal: manager, locationId: world.austin.id, templateId: template.id, title: "From hybrid template" });
    expect((await documentsOf(copied.id)).map((d) => [d.name, d.executionMode])).toEqual([
      ["Disclosure.pdf", "esign"],
      ["Note.pdf", "wet_sign"],
      ["Booklet.pdf", "review_only"],
    ]);

    // The package form of a new package from the template: its selects start from the template's
    // modes; the manager turns the note into a notarized document for this package only.
    const saved = await post(signingFormAction, [
      ["locationId", String(world.austin.id)],
      ["title", "Form from template"],
      ["templateId", template.id],
      ["intent", "save"],
      ...signer,
      [`templateDocumentMode.${note.id}`, "notarize"],
    ]);
    expect(saved.redirect).toBeDefined();
    const [pkg] = await packagesTitled("Form from template");
    expect((await documentsOf(pkg!.id)).map((d) => d.executionMode)).toEqual(["esign", "notarize", "review_only"]);
    // The template keeps its own default.
    await setTemplateDocumentExecutionMode(testDb.db, { principal: manager, templateId: template.id, documentId: note.id, executionMode: "wet_sign" });
    expect((await getTemplateDetail(testDb.db, { principal: manager, templateId: template.id })).documents[1]!.executionMode).toBe("wet_sign");
  }, 60_000);
});

describe("bulk CSV: document_modes", () => {
  it("sets modes by document name or number per package; a bad mode, an unknown document or conflicting rows are row errors and nothing is created", async () => {
    const manager = await managerOf(testDb.db, world.austin.organizationId);
    const template = await createTemplate(testDb.db, {
      principal: manager,
      organizationId: world.austin.organizationId,
      name: "Bulk hybrid",
      roles: [
        { key: "buyer", label: "Buyer", role: "signer", routingOrder: 1 },
        { key: "cobuyer", label: "Co-buyer", role: "co_signer", routingOrder: 1 },
      ],
    });
    const bytes = async (name: string) => new Uint8Array(await (await pdfFile(name)).arrayBuffer());
    await addTemplateDocument(testDb.db, { principal: manager, templateId: template.id, name: "Disclosure.pdf", bytes: await bytes("Disclosure.pdf") });
    await addTemplateDocument(testDb.db, { principal: manager, templateId: template.id, name: "Note.pdf", bytes: await bytes("Note.pdf") });
    await addTemplateDocument(testDb.db, { principal: manager, templateId: template.id, name: "Booklet.pdf", bytes: await bytes("Booklet.pdf"), executionMode: "review_only" });
    const bulk = (csv: string) => createSigningsFromCsv(testDb.db, { principal: manager, templateId: template.id, csv, signerSchema: NewPackageSignerSchema, batchId: randomUUID() });

    const bad = await bulk(
      [
        "name,email,location,title,package,document_modes",
        "Al Pha,al.csv@example.test,Austin Branch,CSV good,,note=wet_sign",
        "Be Ta,be.csv@example.test,Austin Branch,CSV bad mode,,Note.pdf=paper",
        "Ga Ma,ga.csv@example.test,Austin Branch,CSV unknown doc,,Deed.pdf=notarize",
        "De Lta,de.csv@example.test,Austin Branch,CSV pair,p1,2=wet_sign",
        "Ep Si,ep.csv@example.test,Austin Branch,CSV pair,p1,2=notarize",
      ].join("\n"),
    );
    expect(bad.valid).toBe(false);
    const errorOf = (line: number) => bad.rows.find((r) => r.line === line)?.error;
    expect(errorOf(2)).toBeUndefined();
    expect(errorOf(3)).toBe('document_modes: "paper" is not a mode for Note.pdf; use esign, wet_sign, notarize or review_only.');
    expect(errorOf(4)).toBe('document_modes: the template "Bulk hybrid" has no document "Deed.pdf" (its documents: 1 Disclosure.pdf, 2 Note.pdf, 3 Booklet.pdf).');
    expect(errorOf(6)).toContain('package "p1" already has other modes on line 5');
    expect(bad.sent).toBe(0);
    expect(await packagesTitled("CSV good", "CSV bad mode", "CSV unknown doc", "CSV pair")).toEqual([]);

    const good = await bulk(
      [
        "name,email,location,title,package,document_modes",
        'Al Pha,al.csv@example.test,Austin Branch,CSV good,,"Note=wet_sign; 1=review_only"',
        "De Lta,de.csv@example.test,Austin Branch,CSV pair,p1,2=notarize;3=esign",
        "Ep Si,ep.csv@example.test,Austin Branch,CSV pair,p1,",
        "Ze Ta,ze.csv@example.test,Austin Branch,CSV plain,,",
      ].join("\n"),
    );
    expect(good).toMatchObject({ valid: true, sent: 3, failed: 0 });
    const modes = async (title: string) => {
      const [pkg] = await packagesTitled(title);
      return (await documentsOf(pkg!.id)).map((d) => d.executionMode);
    };
    expect(await modes("CSV good")).toEqual(["review_only", "wet_sign", "review_only"]);
    expect(await modes("CSV pair")).toEqual(["esign", "notarize", "esign"]);
    expect(await modes("CSV plain")).toEqual(["esign", "esign", "review_only"]);
  }, 120_000);
});

describe("scanback: a page assigned by hand is turned upright", () => {
  it("stores an unreadable page turned by the rotation the manager gives (Closing page form), and refuses a rotation that is not a quarter turn", async () => {
    const manager = await managerOf(testDb.db, world.austin.organizationId);
    const email = "rotate.scan@demo.local";
    await ensureUser(testDb.db, email);
    const created = await createSigning(testDb.db, {
      principal: manager,
      locationId: world.austin.id,
      title: "Rotated assignment",
      signers: [{ name: "Ro Tate", email }],
      documents: [{ name: "Note.pdf", bytes: await renderAgreementPdf({ title: "Rotated note", parties: ["Borrower"], pages: 2 }), executionMode: "wet_sign" }],
    });
    await sendSigning(testDb.db, { principal: manager, packageId: created.id });
    const [note] = await documentsOf(created.id);
    const packet = await getTablePacket(testDb.db, { principal: manager, packageId: created.id });
    writeFileSync(join(dir, "packet.pdf"), packet.content);
    await run("pdftoppm", ["-r", "150", "-gray", "-png", "-f", "3", "-l", "3", join(dir, "packet.pdf"), join(dir, "pk")]);
    const page2 = join(dir, readdirSync(dir).find((f) => f.startsWith("pk-"))!);
    // The code is torn off (painted white), so the reader cannot place or turn it; then it is scanned turned 90° clockwise.
    await run(CONVERT, [page2, "-fill", "white", "-draw", "rectangle 900,1250 1275,1650", join(dir, "torn.png")]);
    await run(CONVERT, [join(dir, "torn.png"), "-rotate", "90", join(dir, "torn-turned.png")]);
    const upright = await sharp(join(dir, "torn.png")).greyscale().raw().toBuffer({ resolveWithObject: true });

    const uploaded = await uploadScanback(testDb.db, { principal: manager, packageId: created.id, files: [{ name: "turned.png", bytes: readFileSync(join(dir, "torn-turned.png")) }] });
    const [page] = uploaded.report.pages;
    expect(page).toMatchObject({ status: "unreadable" });
    const stored = async () => (await testDb.db.select().from(scanbackPages).where(eq(scanbackPages.id, page!.id)))[0]!;
    expect((await sharp(await readObject(testDb.db, (await stored()).imageStorageKey)).metadata()).width).toBe(upright.info.height);

    await expect(
      assignScanbackPage(testDb.db, { principal: manager, packageId: created.id, pageId: page!.id, assignment: { documentId: note!.id, pageNumber: 2, rotation: 45 as never } }),
    ).rejects.toMatchObject({ status: 400, message: expect.stringContaining("rotation must be 0, 90, 180 or 270") });
    expect((await stored()).outcome).toBe("unreadable");

    // The Closing page's assignment form: turn it 90° counter-clockwise (270° clockwise).
    const assigned = await post(
      assignPageAction as never,
      [
        ["signingId", created.id],
        ["pageId", page!.id],
        ["documentId", note!.id],
        ["pageNumber", "2"],
        ["rotation", "270"],
      ],
      `/signings/${created.id}/closing`,
    );
    expect(assigned.state).toEqual({ status: "ok", message: "Page assigned as page 2 and turned 270° clockwise." });
    const after = await stored();
    expect(after).toMatchObject({ outcome: "assigned", documentId: note!.id, pageNumber: 2 });
    const turned = await sharp(await readObject(testDb.db, after.imageStorageKey)).greyscale().raw().toBuffer({ resolveWithObject: true });
    expect([turned.info.width, turned.info.height]).toEqual([upright.info.width, upright.info.height]);
    // The same pixels as the upright page (lossless PNG turned back).
    let differing = 0;
    for (let i = 0; i < upright.data.length; i++) if (Math.abs(upright.data[i]! - turned.data[i]!) > 8) differing++;
    expect(differing / upright.data.length).toBeLessThan(0.001);
    const [entry] = await testDb.db.select().from(auditLog).where(eq(auditLog.action, "scanback.page_assigned"));
    expect(entry!.after).toMatchObject({ rotation: 270, pageNumber: 2 });
  }, 120_000);
});
