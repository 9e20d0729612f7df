import { randomUUID } from "node:crypto";
import { asc, eq, inArray, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import { attachmentRequests, packageDocuments, packageSigners, signingPackages } from "@/db/schema";
import { NewPackageSignerSchema } from "@/lib/api/schemas/signers";
import { localSubjectForEmail } from "@/lib/auth/local-tokens";
import { resolvePrincipal, type Principal } from "@/lib/auth/principal";
import { renderAgreementPdf } from "@/lib/pdf/pdf";
import { AppError } from "@/lib/errors";
import { createSigningsFromCsv } from "@/lib/signings/create-signings-from-csv";
import { planSigningsFromCsv } from "@/lib/signings/plan-signings-from-csv";
import { addTemplateDocument } from "@/lib/templates/add-template-document";
import { createTemplate } from "@/lib/templates/create-template";
import { createTestDb, type TestDb } from "../helpers/db";
import { countPackages, type DemoWorld } from "../helpers/fixtures";
import { loadManagerWorld } from "../helpers/manager";

// Bulk send from a template and a CSV (docs/manager-console.md "Bulk sending"): every row is checked
// before anything is created, and each package is created and sent whole or not at all.

let testDb: TestDb;
let db: Db;
let world: DemoWorld;
let manager: Principal;
let templateId: string;
let emptyTemplateId: string;

const principalOf = (email: string) => resolvePrincipal(db, localSubjectForEmail(email));
const run = (principal: Principal, csv: string, template = templateId, batchId: string = randomUUID()) =>
  createSigningsFromCsv(db, { principal, templateId: template, csv, signerSchema: NewPackageSignerSchema, batchId });

beforeAll(async () => {
  testDb = await createTestDb();
  db = testDb.db;
  world = await loadManagerWorld(db);
  manager = await principalOf("manager@demo.local");
  const template = await createTemplate(db, {
    principal: manager,
    organizationId: world.austin.organizationId,
    name: "Bulk auto loan",
    roles: [
      { key: "buyer", label: "Buyer", role: "signer", routingOrder: 1 },
      { key: "cobuyer", label: "Co-buyer", role: "co_signer", routingOrder: 2 },
    ],
  });
  templateId = template.id;
  await addTemplateDocument(db, {
    principal: manager,
    templateId,
    name: "Contract.pdf",
    bytes: await renderAgreementPdf({ title: "Bulk contract", parties: ["Buyer"], pages: 1 }),
  });
  emptyTemplateId = (
    await createTemplate(db, { principal: manager, organizationId: world.austin.organizationId, name: "No documents", roles: [] })
  ).id;
});

afterAll(async () => {
  await testDb.cleanup();
});

async function packagesTitled(titles: string[]) {
  return db.select().from(signingPackages).where(inArray(signingPackages.title, titles)).orderBy(asc(signingPackages.title));
}

describe("createSigningsFromCsv", () => {
  it("asks each row's signer for the attachments of its `attachments` column (`;` between them, `(optional)` after one)", async () => {
    const csv = `name,email,location,attachments\nAttach Bulk,attach.bulk@example.com,Austin Branch,"Driver's license | both sides; Proof of insurance (optional)"\n`;
    expect(await run(manager, csv)).toMatchObject({ valid: true, sent: 1 });
    const [created] = await packagesTitled(["Bulk auto loan — Attach Bulk"]);
    const requests = await db.select().from(attachmentRequests).where(eq(attachmentRequests.packageId, created!.id)).orderBy(asc(attachmentRequests.position));
    expect(requests.map((r) => [r.name, r.description, r.required])).toEqual([
      ["Driver's license", "both sides", true],
      ["Proof of insurance", null, false],
    ]);
    // A request without a name is the row's error, and nothing is created.
    const bad = await run(manager, `name,email,location,attachments\nBad Attach,bad.attach@example.com,Austin Branch," | only a description"\n`);
    expect(bad.valid).toBe(false);
    expect(bad.rows[0]!.error).toMatch(/attachments/);
  });

  it("creates and sends one package per row, by location name or id, with the template's documents and first role", async () => {
    const csv = `name,email,location\nAda Bulk,ada.bulk@example.com,Austin Branch\n"Lovelace, Grace",grace.bulk@example.com,${world.dallas.id}\n`;
    const result = await run(manager, csv);

    expect(result).toMatchObject({ valid: true, sent: 2, failed: 0 });
    expect(result.rows.map((r) => [r.line, r.outcome, r.error])).toEqual([
      [2, "sent", undefined],
      [3, "sent", undefined],
    ]);
    const created = await packagesTitled(["Bulk auto loan — Ada Bulk", "Bulk auto loan — Lovelace, Grace"]);
    expect(created.map((p) => [p.locationId, p.status, p.templateId])).toEqual([
      [world.austin.id, "sent", templateId],
      [world.dallas.id, "sent", templateId],
    ]);
    const [ada] = created;
    const signers = await db.select().from(packageSigners).where(eq(packageSigners.packageId, ada!.id));
    expect(signers.map((s) => [s.email, s.role, s.routingOrder, s.status])).toEqual([["ada.bulk@example.com", "signer", 1, "notified"]]);
    const documents = await db.select({ name: packageDocuments.name }).from(packageDocuments).where(eq(packageDocuments.packageId, ada!.id));
    expect(documents).toEqual([{ name: "Contract.pdf" }]);
  });

  it("groups rows with the same package value into one package, taking the template's roles in order", async () => {
    const csv = [
      "name,email,location,package,title",
      "Pat Group,pat.group@example.com,Austin Branch,P-1,",
      "Quinn Group,quinn.group@example.com,Austin Branch,P-1,Group deal",
    ].join("\n");
    const result = await run(manager, csv);
    expect(result).toMatchObject({ valid: true, sent: 1 });
    const [pkg] = await packagesTitled(["Group deal"]);
    const signers = await db.select().from(packageSigners).where(eq(packageSigners.packageId, pkg!.id)).orderBy(asc(packageSigners.routingOrder));
    expect(signers.map((s) => [s.name, s.role, s.routingOrder])).toEqual([
      ["Pat Group", "signer", 1],
      ["Quinn Group", "co_signer", 2],
    ]);
    // Only the first routing group is invited when the package is sent.
    expect(signers.map((s) => s.status)).toEqual(["notified", "pending"]);
  });

  it("creates nothing when one row is bad, and says which row and why", async () => {
    const before = await countPackages(db);
    const csv = "name,email,location\nGood One,good.one@example.com,Austin Branch\nBad Email,not-an-email,Austin Branch\nGood Two,good.two@example.com,Dallas Branch\n";
    const result = await run(manager, csv);

    expect(result.valid).toBe(false);
    expect(result.sent).toBe(0);
    expect(result.rows.map((r) => [r.line, r.outcome, Boolean(r.error)])).toEqual([
      [2, "not_created", false],
      [3, "not_created", true],
      [4, "not_created", false],
    ]);
    expect(result.rows[1]!.error).toContain("email");
    expect(await countPackages(db)).toBe(before);
  });

  it("refuses an email that appears twice in the file, on the later line", async () => {
    const csv = "name,email,location\nSam Twice,twice@example.com,Austin Branch\nSam Again,TWICE@example.com,Dallas Branch\n";
    const plan = await planSigningsFromCsv(db, { principal: manager, templateId, csv, signerSchema: NewPackageSignerSchema });
    expect(plan.valid).toBe(false);
    expect(plan.rows[0]!.error).toBeUndefined();
    expect(plan.rows[1]!.error).toBe("TWICE@example.com is already on line 2; each email may appear only once.");
  });

  it("refuses locations outside the caller's scope or organization like unknown ones", async () => {
    const branch = await principalOf("branch@demo.local"); // manager of Austin only
    const csv = `name,email,location\nIn Scope,in.scope@example.com,Austin Branch\nOther Branch,other.branch@example.com,Dallas Branch\nOther Org,other.org@example.com,${world.tulsa.id}\nNowhere,nowhere@example.com,Atlantis\n`;
    const before = await countPackages(db);
    const result = await run(branch, csv);
    expect(result.valid).toBe(false);
    expect(result.rows.map((r) => r.error ?? "")).toEqual([
      "",
      `Location "Dallas Branch" is not one you can send from with this template.`,
      `Location "${world.tulsa.id}" is not one you can send from with this template.`,
      `Location "Atlantis" is not one you can send from with this template.`,
    ]);
    expect(await countPackages(db)).toBe(before);
  });

  it("refuses a CSV over 1 MiB with a message, and a header without the required columns", async () => {
    const row = "Big Row,big.row@example.com,Austin Branch\n";
    const huge = "name,email,location\n" + row.repeat(Math.ceil((10 * 1024 * 1024) / row.length));
    await expect(run(manager, huge)).rejects.toThrow(new AppError("payload_too_large", "The CSV exceeds the 1 MiB limit."));
    await expect(run(manager, "name,mail\nA,a@example.com\n")).rejects.toThrow(
      "The CSV's first line must name the columns name, email, location; missing: email, location.",
    );
  });

  it("rolls a package back whole when it cannot be sent, and still sends the others", async () => {
    // A template without documents: the package would have nothing to sign, so sending fails.
    const before = await countPackages(db);
    const result = await run(manager, "name,email,location\nNo Docs,no.docs@example.com,Austin Branch\n", emptyTemplateId);
    expect(result).toMatchObject({ valid: true, sent: 0, failed: 1 });
    expect(result.rows[0]).toMatchObject({ outcome: "failed", error: "A signing package needs at least one document before it can be sent." });
    expect(await countPackages(db)).toBe(before);
  });

  it("refuses a caller who cannot create packages", async () => {
    const admin = await principalOf("admin@demo.local");
    await expect(run(admin, "name,email,location\nA,a@example.com,Austin Branch\n")).rejects.toThrow(
      "You do not have permission to create signing packages.",
    );
  });

  it("takes an optional language column (en or es) for each signer, and refuses any other value by line", async () => {
    const bad = await run(manager, "name,email,location,language\nLuz Bulk,luz.bad@example.com,Austin Branch,fr\n");
    expect(bad.valid).toBe(false);
    expect(bad.rows[0]!.error).toMatch(/^language:/);

    const csv = "name,email,location,language,title\nLuz Bulk,luz.bulk@example.com,Austin Branch,ES,Bulk es\nTom Bulk,tom.bulk@example.com,Austin Branch,,Bulk default\n";
    expect(await run(manager, csv)).toMatchObject({ valid: true, sent: 2 });
    const rows = await db
      .select({ email: packageSigners.email, language: packageSigners.language })
      .from(packageSigners)
      .where(inArray(packageSigners.email, ["luz.bulk@example.com", "tom.bulk@example.com"]))
      .orderBy(asc(packageSigners.email));
    expect(rows).toEqual([
      { email: "luz.bulk@example.com", language: "es" },
      { email: "tom.bulk@example.com", language: null },
    ]);
  });
});

describe("bulk CSV: how each signer proves who they are", () => {
  it("takes auth_method, access_code and phone per row; the code is stored hashed", async () => {
    const csv = [
      "name,email,location,auth_method,access_code,phone",
      "Cole Code,cole.code@example.com,Austin Branch,access_code,78701,",
      "Tia Text,tia.text@example.com,Austin Branch,sms_code,,+15125550123",
      "Lou Link,lou.link@example.com,Austin Branch,link,,",
      "Eve Default,eve.default@example.com,Austin Branch,,,",
    ].join("\n");
    const result = await run(manager, csv);
    expect(result).toMatchObject({ valid: true, sent: 4, failed: 0 });
    const rows = await db
      .select()
      .from(packageSigners)
      .where(inArray(packageSigners.email, ["cole.code@example.com", "tia.text@example.com", "lou.link@example.com", "eve.default@example.com"]))
      .orderBy(asc(packageSigners.email));
    expect(rows.map((r) => [r.email, r.authMethod, r.phone, r.accessCodeHash !== null])).toEqual([
      ["cole.code@example.com", "access_code", null, true],
      ["eve.default@example.com", null, null, false],
      ["lou.link@example.com", "link", null, false],
      ["tia.text@example.com", "sms_code", "+15125550123", false],
    ]);
    expect(rows[0]!.accessCodeHash).not.toContain("78701");
  });

  it("names the column and the reason on each wrong row, and creates nothing", async () => {
    const before = await countPackages(db);
    const csv = [
      "name,email,location,auth_method,access_code,phone",
      "Nia Nocode,nia.nocode@example.com,Austin Branch,access_code,,",
      "Pia Nophone,pia.nophone@example.com,Austin Branch,sms_code,,",
      "Rex Badphone,rex.badphone@example.com,Austin Branch,sms_code,,512-555-0123",
      "Moe Magic,moe.magic@example.com,Austin Branch,magic_word,,",
      "Sal Short,sal.short@example.com,Austin Branch,access_code,12,",
      "Ok Row,ok.row@example.com,Austin Branch,email_code,,",
    ].join("\n");
    const result = await run(manager, csv);
    expect(result.valid).toBe(false);
    const errors = Object.fromEntries(result.rows.map((r) => [r.line, r.error]));
    expect(errors[2]).toMatch(/^access_code: Enter an access code/);
    expect(errors[3]).toMatch(/^phone: Enter a mobile number/);
    expect(errors[4]).toMatch(/^phone: expected a phone number in E\.164 form/);
    expect(errors[5]).toMatch(/^auth_method: /);
    expect(errors[5]).toMatch(/access_code/);
    expect(errors[6]).toMatch(/^access_code: an access code has at least 4 characters/);
    expect(errors[7]).toBeUndefined();
    expect(await countPackages(db)).toBe(before);
  });

  it("a template whose method is access_code needs the access_code column on each row that follows it", async () => {
    const coded = await createTemplate(db, {
      principal: manager,
      organizationId: world.austin.organizationId,
      name: "Coded bulk",
      signerAuthMethod: "access_code",
      roles: [{ key: "buyer", label: "Buyer", role: "signer", routingOrder: 1 }],
    });
    await addTemplateDocument(db, { principal: manager, templateId: coded.id, name: "C.pdf", bytes: await renderAgreementPdf({ title: "C", parties: ["Buyer"], pages: 1 }) });
    const plan = await planSigningsFromCsv(db, {
      principal: manager,
      templateId: coded.id,
      csv: "name,email,location,access_code,auth_method\nAmy Coded,amy.coded@example.com,Austin Branch,5555,\nBen Uncoded,ben.uncoded@example.com,Austin Branch,,\nCal Linked,cal.linked@example.com,Austin Branch,,link\n",
      signerSchema: NewPackageSignerSchema,
    });
    expect(plan.rows.map((r) => r.error ?? "ok")).toEqual(["ok", expect.stringMatching(/^access_code: Enter an access code/), "ok"]);
  });
});

describe("a bulk send cut short and submitted again (the form's batch id)", () => {
  const lines = (from: number, to: number) =>
    Array.from({ length: to - from + 1 }, (_, i) => `Resume ${from + i},resume.${from + i}@example.com,Austin Branch`).join("\n");
  const titledResume = async () =>
    (await db.select({ id: signingPackages.id }).from(packageSigners).innerJoin(signingPackages, eq(signingPackages.id, packageSigners.packageId)).where(like(packageSigners.email, "resume.%@example.com"))).length;

  it("creates only the packages the first submission did not: none twice, and the report counts both", async () => {
    const batchId = randomUUID();
    const header = "name,email,location";
    const before = await countPackages(db);
    // The first submission timed out after its first 6 packages had been created (each commits on its own).
    const half = await run(manager, `${header}\n${lines(1, 6)}\n`, templateId, batchId);
    expect(half).toMatchObject({ valid: true, sent: 6, alreadySent: 0, failed: 0 });
    expect(await countPackages(db)).toBe(before + 6);

    // The manager presses "Create and send" again with the whole file: the same batch resumes.
    const again = await run(manager, `${header}\n${lines(1, 12)}\n`, templateId, batchId);
    expect(again).toMatchObject({ valid: true, sent: 6, alreadySent: 6, failed: 0 });
    expect(again.rows.map((r) => r.outcome)).toEqual([...Array(6).fill("already_sent"), ...Array(6).fill("sent")]);
    expect(new Set(again.rows.slice(0, 6).map((r) => r.packageId))).toEqual(new Set(half.rows.map((r) => r.packageId)));
    expect(await countPackages(db)).toBe(before + 12);
    expect(await titledResume()).toBe(12);

    // And once more (a double click on the result): nothing new.
    expect(await run(manager, `${header}\n${lines(1, 12)}\n`, templateId, batchId)).toMatchObject({ sent: 0, alreadySent: 12 });
    expect(await countPackages(db)).toBe(before + 12);
    // Each signer was invited once.
    const signers = await db.select().from(packageSigners).where(like(packageSigners.email, "resume.%@example.com"));
    expect(signers).toHaveLength(12);
  });

  it("two submissions of one batch at the same time create each package once", async () => {
    const batchId = randomUUID();
    const before = await countPackages(db);
    const csv = `name,email,location\n${lines(21, 28)}\n`;
    const [a, b] = await Promise.all([run(manager, csv, templateId, batchId), run(manager, csv, templateId, batchId)]);
    expect(a.sent + b.sent).toBe(8);
    expect(a.alreadySent + b.alreadySent).toBe(8);
    expect(await countPackages(db)).toBe(before + 8);
  });

  it("a new batch id sends the same file again (a deliberate second send)", async () => {
    const before = await countPackages(db);
    const csv = `name,email,location\n${lines(31, 32)}\n`;
    expect(await run(manager, csv)).toMatchObject({ sent: 2, alreadySent: 0 });
    expect(await run(manager, csv)).toMatchObject({ sent: 2, alreadySent: 0 });
    expect(await countPackages(db)).toBe(before + 4);
  });
});
