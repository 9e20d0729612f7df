import { createHash } from "node:crypto";
import { and, asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, packageSeals, sealedDocuments, transferableControlLog, transferableRecords } from "@/db/schema";
import { verifyAuditChain } from "@/lib/audit/verify-audit-chain";
import { localSubjectForEmail } from "@/lib/auth/local-tokens";
import { resolvePrincipal, type Principal } from "@/lib/auth/principal";
import { setEnvForTests } from "@/lib/env";
import { getPackageSeal } from "@/lib/seals/get-package-seal";
import { getSealedFile } from "@/lib/seals/get-sealed-file";
import { verifySealedPdf } from "@/lib/seals/verify-sealed-pdf";
import { readObject } from "@/lib/storage/objects";
import { acceptTransfer, convertToPaper, declineTransfer, offerTransfer, pledgeRecord, releasePledge, withdrawTransfer } from "@/lib/transferable-records/change-control";
import { verifyControlLog } from "@/lib/transferable-records/control-log";
import { getAuthoritativeCopy, getVaultRecord, listVaultRecords } from "@/lib/transferable-records/get-vault-record";
import { setDocumentTransferable } from "@/lib/transferable-records/set-document-transferable";
import { createTestDb, type TestDb } from "../helpers/db";
import { pdfTextPages } from "../helpers/pdf-text";
import { loadDemoWorld, type DemoWorld } from "../helpers/fixtures";
import { createSignerPackage } from "../helpers/signing-fixtures";
import { loadVaultWorld, sealedTransferable } from "../helpers/vault-world";
import { randomUUID } from "node:crypto";
import { inArray } from "drizzle-orm";
import { packageDocuments, signingPackages } from "@/db/schema";
import { NewPackageSignerSchema } from "@/lib/api/schemas/signers";
import { renderAgreementPdf } from "@/lib/pdf/pdf";
import { createSigningsFromCsv } from "@/lib/signings/create-signings-from-csv";
import { addTemplateDocument } from "@/lib/templates/add-template-document";
import { createTemplate } from "@/lib/templates/create-template";
import { setTemplateDocumentTransferable } from "@/lib/transferable-records/set-template-document-transferable";


let testDb: TestDb;
let world: DemoWorld;
let lender: Principal;
let investor: Principal;
let bank: Principal;
let lenderManager: Principal;
let ids: { lender: number; investor: number; bank: number };
let counter = 0;

beforeAll(async () => {
  testDb = await createTestDb();
  world = await loadDemoWorld(testDb.db);
  setEnvForTests({ VAULT_WEBHOOK_URL: undefined });
  ({ ids, lender, investor, bank, lenderManager } = await loadVaultWorld(testDb.db, world, "warehouse-bank"));
});
afterAll(async () => {
  await testDb.cleanup();
});

/** A two-document draft whose first document is marked transferable, sent, signed and sealed. */
async function sealedContract() {
  counter += 1;
  const buyer = `buyer-${counter}@demo.local`;
  const { pkg, record } = await sealedTransferable(testDb.db, { world, lender, title: `Retail installment contract ${counter}`, buyer, documentCount: 2 });
  return { pkg, contract: pkg.documents[0]!, other: pkg.documents[1]!, record, buyer };
}

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

describe("transferable records", () => {
  it("sealing makes the marked document's sealed PDF the authoritative copy under the sender's control, logged and anchored", async () => {
    const { pkg, contract, record } = await sealedContract();
    expect(record).toMatchObject({ documentId: contract.id, controllerOrganizationId: ids.lender, status: "active", logLength: 1 });
    const [sealed] = await testDb.db.select().from(sealedDocuments).where(eq(sealedDocuments.documentId, contract.id));
    expect(record.authoritativeSha256).toBe(sealed!.sha256);
    expect(record.authoritativeStorageKey).toBe(sealed!.storageKey);
    // Only the marked document is a record; the seal's view says which.
    const sealView = await getPackageSeal(testDb.db, { packageId: pkg.id });
    expect(Object.fromEntries(sealView!.documents.map((d) => [d.documentId, d.transferable]))).toEqual({ [contract.id]: true, [pkg.documents[1]!.id]: false });
    expect(await testDb.db.select().from(transferableRecords).where(eq(transferableRecords.packageId, pkg.id))).toHaveLength(1);

    // The log's first entry links to the package's anchored audit head; the audit trail carries the entry's hash.
    const [seal] = await testDb.db.select().from(packageSeals).where(eq(packageSeals.packageId, pkg.id));
    const [first] = await testDb.db.select().from(transferableControlLog).where(eq(transferableControlLog.recordId, record.id));
    expect(first).toMatchObject({ seq: 1, action: "established", prevHash: seal!.auditHeadHash, toOrganizationId: ids.lender });
    const [established] = await testDb.db.select().from(auditLog).where(and(eq(auditLog.packageId, pkg.id), eq(auditLog.action, "record.established")));
    expect((established!.after as { controlLogHash: string }).controlLogHash).toBe(first!.hash);
    expect(await verifyControlLog(testDb.db, { record, anchor: seal!.auditHeadHash! })).toMatchObject({ verified: true });
    expect(await verifyAuditChain(testDb.db, { packageId: pkg.id })).toMatchObject({ verified: true });

    // The standalone certificate names the record, its authoritative hash and the controller at sealing.
    const certificatePages = await pdfTextPages(await readObject(testDb.db, seal!.certificateStorageKey!));
    const certificate = certificatePages.join("\n").replace(/\s+/g, " ");
    expect(certificate).toContain("Transferable record");
    expect(certificate).toContain(record.authoritativeSha256);
    expect(certificate).toContain("under the control of Demo Lending Co. at sealing");
  });

  it("every download of the record is a marked copy (COPY on each page, where the authoritative copy is held); only the controller gets the authoritative copy", async () => {
    const { pkg, contract, other, record, buyer } = await sealedContract();
    const borrower = await resolvePrincipal(testDb.db, localSubjectForEmail(buyer));
    const copy = await getSealedFile(testDb.db, { principal: borrower, packageId: pkg.id, file: contract.id, as: "signer" });
    expect(copy.fileName).toMatch(/\(copy\)\.pdf$/);
    expect(copy.storageKey).toBeNull();
    const copyBytes = await copy.read();
    expect(sha256(copyBytes)).not.toBe(record.authoritativeSha256);
    const pages = await pdfTextPages(copyBytes);
    expect(pages.length).toBeGreaterThanOrEqual(2);
    for (const page of pages) {
      expect(page).toMatch(/COPY/);
      expect(page.replace(/\s+/g, " ")).toContain("held in the eVault of Demo Lending Co.");
    }
    // The package's other document is not a record: its sealed PDF comes as it is.
    const plain = await getSealedFile(testDb.db, { principal: borrower, packageId: pkg.id, file: other.id, as: "signer" });
    expect((await pdfTextPages(await plain.read())).join("")).not.toMatch(/COPY/);

    // /verify: the authoritative copy names its controller; a marked copy is recognised as a copy of the record.
    const authoritative = await getAuthoritativeCopy(testDb.db, { principal: lender, recordId: record.id });
    const authoritativeBytes = await authoritative.read();
    expect(sha256(authoritativeBytes)).toBe(record.authoritativeSha256);
    expect(await verifySealedPdf(testDb.db, { bytes: authoritativeBytes })).toMatchObject({ outcome: "sealed", transferableRecord: { controller: "Demo Lending Co.", status: "active" } });
    expect(await verifySealedPdf(testDb.db, { bytes: copyBytes })).toMatchObject({ outcome: "record_copy", transferableRecord: { recordId: record.id, controller: "Demo Lending Co." } });

    // A location-level manager of the lender, and other organizations, do not get the authoritative copy.
    await expect(getAuthoritativeCopy(testDb.db, { principal: lenderManager, recordId: record.id })).rejects.toMatchObject({ code: "not_found" });
    await expect(getAuthoritativeCopy(testDb.db, { principal: investor, recordId: record.id })).rejects.toMatchObject({ code: "not_found" });
  });

  it("control moves once the assignee accepts; the previous controller can no longer transfer or fetch the authoritative copy; /verify shows the new controller", async () => {
    const { record } = await sealedContract();
    const offered = await offerTransfer(testDb.db, { principal: lender, recordId: record.id, toOrganizationId: ids.investor, note: "Sold in pool 2026-11" });
    expect(offered).toMatchObject({ controller: { id: ids.lender }, pendingTransferee: { id: ids.investor, name: "Other Mortgage LLC" } });
    expect((await listVaultRecords(testDb.db, { principal: investor })).find((r) => r.id === record.id)).toMatchObject({ yourRole: "offered" });
    // Offered is not transferred: the lender still controls and may still read the copy.
    expect(await getAuthoritativeCopy(testDb.db, { principal: lender, recordId: record.id })).toMatchObject({ sha256: record.authoritativeSha256 });

    const accepted = await acceptTransfer(testDb.db, { principal: investor, recordId: record.id });
    expect(accepted).toMatchObject({ controller: { id: ids.investor }, pendingTransferee: null, yourRole: "controller" });
    expect(accepted.history.map((h) => h.action)).toEqual(["established", "transfer_offered", "transfer_accepted"]);

    await expect(offerTransfer(testDb.db, { principal: lender, recordId: record.id, toOrganizationId: ids.bank })).rejects.toMatchObject({ code: "not_found" });
    await expect(getAuthoritativeCopy(testDb.db, { principal: lender, recordId: record.id })).rejects.toMatchObject({ code: "not_found" });
    expect((await listVaultRecords(testDb.db, { principal: lender })).find((r) => r.id === record.id)).toBeUndefined();
    const copy = await getAuthoritativeCopy(testDb.db, { principal: investor, recordId: record.id });
    expect(await verifySealedPdf(testDb.db, { bytes: await copy.read() })).toMatchObject({
      outcome: "sealed",
      transferableRecord: { controller: "Other Mortgage LLC", history: [{ action: "established" }, { action: "transfer_offered", to: "Other Mortgage LLC" }, { action: "transfer_accepted" }] },
    });
    const [seal] = await testDb.db.select().from(packageSeals).where(eq(packageSeals.packageId, record.packageId));
    const [now] = await testDb.db.select().from(transferableRecords).where(eq(transferableRecords.id, record.id));
    expect(await verifyControlLog(testDb.db, { record: now!, anchor: seal!.auditHeadHash! })).toMatchObject({ verified: true });
  });

  it("two transfers started at once resolve to one; the assignee can decline; the controller can withdraw", async () => {
    const { record } = await sealedContract();
    const results = await Promise.allSettled([
      offerTransfer(testDb.db, { principal: lender, recordId: record.id, toOrganizationId: ids.investor }),
      offerTransfer(testDb.db, { principal: lender, recordId: record.id, toOrganizationId: ids.bank }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const refused = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(refused.reason).toMatchObject({ code: "conflict" });
    const winner = (results.find((r) => r.status === "fulfilled") as PromiseFulfilledResult<Awaited<ReturnType<typeof offerTransfer>>>).value.pendingTransferee!.id;
    const assignee = winner === ids.investor ? investor : bank;
    const loser = winner === ids.investor ? bank : investor;
    await expect(acceptTransfer(testDb.db, { principal: loser, recordId: record.id })).rejects.toMatchObject({ code: "not_found" });

    const declined = await declineTransfer(testDb.db, { principal: assignee, recordId: record.id });
    expect(declined).toMatchObject({ controller: { id: ids.lender }, pendingTransferee: null, yourRole: "none" });
    await expect(acceptTransfer(testDb.db, { principal: assignee, recordId: record.id })).rejects.toMatchObject({ code: "not_found" });

    await offerTransfer(testDb.db, { principal: lender, recordId: record.id, toOrganizationId: ids.investor });
    expect(await withdrawTransfer(testDb.db, { principal: lender, recordId: record.id })).toMatchObject({ pendingTransferee: null });
    await expect(acceptTransfer(testDb.db, { principal: investor, recordId: record.id })).rejects.toMatchObject({ code: "not_found" });

    // Concurrent accepts of one offer: exactly one entry, one controller.
    await offerTransfer(testDb.db, { principal: lender, recordId: record.id, toOrganizationId: ids.investor });
    const accepts = await Promise.allSettled([acceptTransfer(testDb.db, { principal: investor, recordId: record.id }), acceptTransfer(testDb.db, { principal: investor, recordId: record.id })]);
    expect(accepts.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const log = await testDb.db.select().from(transferableControlLog).where(eq(transferableControlLog.recordId, record.id)).orderBy(asc(transferableControlLog.seq));
    expect(log.map((e) => e.action)).toEqual([
      "established",
      "transfer_offered",
      "transfer_declined",
      "transfer_offered",
      "transfer_withdrawn",
      "transfer_offered",
      "transfer_accepted",
    ]);
    expect(log.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6, 7]);

    // Bad input changes nothing.
    await expect(offerTransfer(testDb.db, { principal: investor, recordId: record.id, toOrganizationId: "x" })).rejects.toMatchObject({ code: "bad_request" });
    await expect(offerTransfer(testDb.db, { principal: investor, recordId: record.id, toOrganizationId: 999_999 })).rejects.toMatchObject({ code: "bad_request" });
    await expect(offerTransfer(testDb.db, { principal: investor, recordId: record.id, toOrganizationId: ids.investor })).rejects.toMatchObject({ code: "bad_request" });
    await expect(offerTransfer(testDb.db, { principal: investor, recordId: "not-a-uuid", toOrganizationId: ids.bank })).rejects.toMatchObject({ code: "not_found" });
    expect((await getVaultRecord(testDb.db, { principal: investor, recordId: record.id })).history).toHaveLength(7);
  });

  it("a pledge blocks transfer and paper-out until the secured party releases it; paper-out retires the authoritative copy for good", async () => {
    const { pkg, contract, record, buyer } = await sealedContract();
    const pledged = await pledgeRecord(testDb.db, { principal: lender, recordId: record.id, toOrganizationId: ids.bank });
    expect(pledged).toMatchObject({ pledgee: { id: ids.bank, name: "Warehouse Bank N.A." }, controller: { id: ids.lender } });
    expect((await listVaultRecords(testDb.db, { principal: bank })).find((r) => r.id === record.id)).toMatchObject({ yourRole: "pledgee" });
    await expect(offerTransfer(testDb.db, { principal: lender, recordId: record.id, toOrganizationId: ids.investor })).rejects.toMatchObject({ code: "conflict" });
    await expect(convertToPaper(testDb.db, { principal: lender, recordId: record.id })).rejects.toMatchObject({ code: "conflict" });
    await expect(releasePledge(testDb.db, { principal: lender, recordId: record.id })).rejects.toMatchObject({ code: "conflict" });
    expect(await releasePledge(testDb.db, { principal: bank, recordId: record.id })).toMatchObject({ pledgee: null });
    await expect(getVaultRecord(testDb.db, { principal: bank, recordId: record.id })).rejects.toMatchObject({ code: "not_found" });

    const paper = await convertToPaper(testDb.db, { principal: lender, recordId: record.id });
    expect(paper).toMatchObject({ status: "paper_out" });
    expect(paper.paperOutAt).toBeInstanceOf(Date);
    await expect(getAuthoritativeCopy(testDb.db, { principal: lender, recordId: record.id })).rejects.toMatchObject({ code: "conflict" });
    await expect(offerTransfer(testDb.db, { principal: lender, recordId: record.id, toOrganizationId: ids.investor })).rejects.toMatchObject({ code: "conflict" });
    await expect(pledgeRecord(testDb.db, { principal: lender, recordId: record.id, toOrganizationId: ids.bank })).rejects.toMatchObject({ code: "conflict" });

    const borrower = await resolvePrincipal(testDb.db, localSubjectForEmail(buyer));
    const copy = await getSealedFile(testDb.db, { principal: borrower, packageId: pkg.id, file: contract.id, as: "signer" });
    for (const page of await pdfTextPages(await copy.read())) expect(page.replace(/\s+/g, " ")).toMatch(/COPY.*converted to paper/);
    const log = await testDb.db.select().from(transferableControlLog).where(eq(transferableControlLog.recordId, record.id)).orderBy(asc(transferableControlLog.seq));
    expect(log.map((e) => e.action)).toEqual(["established", "pledged", "released", "paper_out"]);
  });

  it("the control log is append-only in the database, and a rewritten entry is detected", async () => {
    const { record } = await sealedContract();
    const failure = (query: Promise<unknown>) => query.then(() => "succeeded", (e: Error & { cause?: Error }) => `${e.message} ${e.cause?.message ?? ""}`);
    expect(await failure(testDb.db.execute(sql`update transferable_control_log set note = 'x' where record_id = ${record.id}`))).toMatch(/append-only/);
    expect(await failure(testDb.db.execute(sql`delete from transferable_control_log where record_id = ${record.id}`))).toMatch(/append-only/);
    const [seal] = await testDb.db.select().from(packageSeals).where(eq(packageSeals.packageId, record.packageId));
    // Someone moving the record's head (say, to hide a later entry) is caught against the log.
    const forged = { ...record, logLength: 2 };
    expect(await verifyControlLog(testDb.db, { record: forged, anchor: seal!.auditHeadHash! })).toMatchObject({ verified: false });
    expect(await verifyControlLog(testDb.db, { record, anchor: "f".repeat(64) })).toMatchObject({ verified: false, brokenAt: 1 });
  });

  it("the authoritative copy a record names cannot be changed or the record deleted, while control still moves", async () => {
    const { record } = await sealedContract();
    const failure = (query: Promise<unknown>) => query.then(() => "succeeded", (e: Error & { cause?: Error }) => `${e.message} ${e.cause?.message ?? ""}`);
    const other = "0".repeat(64);
    expect(await failure(testDb.db.execute(sql`update transferable_records set authoritative_sha256 = ${other} where id = ${record.id}`))).toMatch(/cannot be changed/);
    expect(await failure(testDb.db.execute(sql`update transferable_records set authoritative_storage_key = ${`sha256/${other}`} where id = ${record.id}`))).toMatch(/cannot be changed/);
    expect(await failure(testDb.db.execute(sql`update transferable_records set established_at = now() - interval '1 day' where id = ${record.id}`))).toMatch(/cannot be changed/);
    expect(await failure(testDb.db.execute(sql`delete from transferable_records where id = ${record.id}`))).toMatch(/never deleted/);
    const [kept] = await testDb.db.select().from(transferableRecords).where(eq(transferableRecords.id, record.id));
    expect(kept).toMatchObject({ authoritativeSha256: record.authoritativeSha256, authoritativeStorageKey: record.authoritativeStorageKey });
    // Control itself still moves through the ordinary operations.
    await offerTransfer(testDb.db, { principal: lender, recordId: record.id, toOrganizationId: ids.investor });
    const [offered] = await testDb.db.select().from(transferableRecords).where(eq(transferableRecords.id, record.id));
    expect(offered!.pendingTransfereeOrganizationId).toBe(ids.investor);
  });

  it("marking transferable is for drafts and documents of the package only", async () => {
    const { pkg, contract } = await sealedContract();
    await expect(setDocumentTransferable(testDb.db, { principal: lender, packageId: pkg.id, documentId: contract.id, transferable: false })).rejects.toMatchObject({ code: "conflict" });
    const draft = await createSignerPackage(testDb.db, { location: world.austin, title: "Draft note", status: "draft", signers: [{ email: "draft-buyer@demo.local" }] });
    await expect(setDocumentTransferable(testDb.db, { principal: lender, packageId: draft.id, documentId: contract.id, transferable: true })).rejects.toMatchObject({ code: "not_found" });
  });

  it("a bulk CSV send from a template whose contract is marked transferable marks every package's copy", async () => {
    const template = await createTemplate(testDb.db, {
      principal: lender,
      organizationId: ids.lender,
      name: "Bulk RIC",
      roles: [{ key: "buyer", label: "Buyer", role: "signer", routingOrder: 1 }],
    });
    const contract = await addTemplateDocument(testDb.db, { principal: lender, templateId: template.id, name: "RIC.pdf", bytes: await renderAgreementPdf({ title: "RIC", parties: ["Buyer"], pages: 1 }) });
    await addTemplateDocument(testDb.db, { principal: lender, templateId: template.id, name: "Privacy notice.pdf", bytes: await renderAgreementPdf({ title: "Privacy", parties: ["Buyer"], pages: 1 }) });
    await expect(setTemplateDocumentTransferable(testDb.db, { principal: investor, templateId: template.id, documentId: contract.id, transferable: true })).rejects.toMatchObject({ code: expect.stringMatching(/^(not_found|forbidden)$/) });
    await setTemplateDocumentTransferable(testDb.db, { principal: lender, templateId: template.id, documentId: contract.id, transferable: true });

    const csv = "name,email,location\nBea Bulk,bea.bulk@example.com,Austin Branch\nCal Bulk,cal.bulk@example.com,Austin Branch\n";
    const result = await createSigningsFromCsv(testDb.db, { principal: lender, templateId: template.id, csv, signerSchema: NewPackageSignerSchema, batchId: randomUUID() });
    expect(result).toMatchObject({ valid: true, sent: 2 });
    const packages = await testDb.db.select().from(signingPackages).where(inArray(signingPackages.title, ["Bulk RIC — Bea Bulk", "Bulk RIC — Cal Bulk"]));
    expect(packages).toHaveLength(2);
    const documents = await testDb.db.select().from(packageDocuments).where(inArray(packageDocuments.packageId, packages.map((p) => p.id)));
    expect(documents.map((d) => [d.name, d.transferable]).sort()).toEqual([
      ["Privacy notice.pdf", false],
      ["Privacy notice.pdf", false],
      ["RIC.pdf", true],
      ["RIC.pdf", true],
    ]);
  });
});
