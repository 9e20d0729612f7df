import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import { packageDocuments, packageSigners, signingPackages } from "@/db/schema";
import { localSubjectForEmail } from "@/lib/auth/local-tokens";
import { resolvePrincipal, type Principal } from "@/lib/auth/principal";
import { renderAgreementPdf } from "@/lib/pdf/pdf";
import { saveSigningDraft } from "@/lib/signings/save-signing-draft";
import { createTestDb, type TestDb } from "../helpers/db";
import { auditEntriesFor, countPackages, type DemoWorld } from "../helpers/fixtures";
import { loadManagerWorld } from "../helpers/manager";

// The manager's package form (/signings/new, /signings/<id>/edit) saves through saveSigningDraft:
// one transaction over the same domain functions as /v1, optionally sending at the end.

let testDb: TestDb;
let db: Db;
let world: DemoWorld;
let manager: Principal;

const pdf = (title: string) => renderAgreementPdf({ title, parties: ["Buyer"], pages: 2 });
const notPdf = new TextEncoder().encode("just some text, not a PDF");

async function stateOf(id: string) {
  const [signing] = await db.select().from(signingPackages).where(eq(signingPackages.id, id));
  const signers = await db
    .select({ id: packageSigners.id, name: packageSigners.name, email: packageSigners.email, role: packageSigners.role, routingOrder: packageSigners.routingOrder })
    .from(packageSigners)
    .where(eq(packageSigners.packageId, id))
    .orderBy(asc(packageSigners.routingOrder), asc(packageSigners.email));
  const documents = await db
    .select({ id: packageDocuments.id, name: packageDocuments.name, pageCount: packageDocuments.pageCount })
    .from(packageDocuments)
    .where(eq(packageDocuments.packageId, id))
    .orderBy(asc(packageDocuments.position));
  return { signing: signing!, signers, documents };
}

beforeAll(async () => {
  testDb = await createTestDb();
  db = testDb.db;
  world = await loadManagerWorld(db);
  manager = await resolvePrincipal(db, localSubjectForEmail("manager@demo.local"));
});

afterAll(async () => {
  await testDb.cleanup();
});

describe("saveSigningDraft", () => {
  it("creates a draft with signers and PDFs, then edits signers, documents and title in one save", async () => {
    const created = await saveSigningDraft(db, {
      principal: manager,
      locationId: world.austin.id,
      title: "Form draft",
      message: "Please sign",
      signers: [
        { name: "Ann Form", email: "ann.form@example.com", role: "signer", routingOrder: 1 },
        { name: "Bob Form", email: "bob.form@example.com", role: "co_signer", routingOrder: 1 },
      ],
      documents: [{ name: "Contract.pdf", bytes: await pdf("Form contract") }],
    });
    const first = await stateOf(created.id);
    expect(first.signing).toMatchObject({ status: "draft", title: "Form draft", message: "Please sign", locationId: world.austin.id });
    expect(first.signers.map((s) => [s.name, s.role, s.routingOrder])).toEqual([
      ["Ann Form", "signer", 1],
      ["Bob Form", "co_signer", 1],
    ]);
    expect(first.documents.map((d) => [d.name, d.pageCount])).toEqual([["Contract.pdf", 2]]);

    const [ann, bob] = first.signers;
    await saveSigningDraft(db, {
      principal: manager,
      packageId: created.id,
      locationId: world.austin.id,
      title: "Form draft (edited)",
      signers: [
        { id: bob!.id, name: "Bob Form", email: "bob.form@example.com", role: "co_signer", routingOrder: 2 },
        { name: "Cy Form", email: "cy.form@example.com", role: "signer", routingOrder: 1 },
      ],
      removeDocumentIds: [first.documents[0]!.id],
      documents: [{ name: "Addendum.pdf", bytes: await pdf("Form addendum") }],
    });
    const second = await stateOf(created.id);
    expect(second.signing).toMatchObject({ status: "draft", title: "Form draft (edited)", message: null });
    expect(second.signers.map((s) => [s.name, s.email, s.routingOrder])).toEqual([
      ["Cy Form", "cy.form@example.com", 1],
      ["Bob Form", "bob.form@example.com", 2],
    ]);
    expect(second.signers.find((s) => s.name === "Bob Form")!.id).toBe(bob!.id);
    expect(second.signers.some((s) => s.id === ann!.id)).toBe(false);
    expect(second.documents.map((d) => d.name)).toEqual(["Addendum.pdf"]);
    const actions = (await auditEntriesFor(db, created.id)).map((e) => e.action);
    expect(actions).toEqual(
      expect.arrayContaining(["signing.created", "signing.updated", "signer.removed", "signer.updated", "signer.added", "document.removed", "document.added"]),
    );
  });

  it("changes nothing when one PDF is refused, and names the file", async () => {
    const created = await saveSigningDraft(db, {
      principal: manager,
      locationId: world.dallas.id,
      title: "Keep me",
      signers: [{ name: "Dee Keep", email: "dee.keep@example.com", role: "signer", routingOrder: 1 }],
    });
    const before = await stateOf(created.id);
    await expect(
      saveSigningDraft(db, {
        principal: manager,
        packageId: created.id,
        locationId: world.dallas.id,
        title: "Changed title",
        signers: [],
        documents: [
          { name: "Good.pdf", bytes: await pdf("Good") },
          { name: "notes.txt", bytes: notPdf },
        ],
      }),
    ).rejects.toThrow("notes.txt: The uploaded file is not a readable PDF.");
    expect(await stateOf(created.id)).toEqual(before);
  });

  it("creates nothing when a new package cannot be sent (no document), and sends one that can", async () => {
    const count = await countPackages(db);
    await expect(
      saveSigningDraft(db, {
        principal: manager,
        locationId: world.austin.id,
        title: "Send without documents",
        signers: [{ name: "Eve Send", email: "eve.send@example.com", role: "signer", routingOrder: 1 }],
        send: true,
      }),
    ).rejects.toThrow("A signing package needs at least one document before it can be sent.");
    expect(await countPackages(db)).toBe(count);

    const sent = await saveSigningDraft(db, {
      principal: manager,
      locationId: world.austin.id,
      title: "Send with a document",
      signers: [{ name: "Eve Send", email: "eve.send@example.com", role: "signer", routingOrder: 1 }],
      documents: [{ name: "Contract.pdf", bytes: await pdf("Send contract") }],
      send: true,
    });
    expect(sent.status).toBe("sent");
    expect((await stateOf(sent.id)).signing.sentAt).not.toBeNull();
  });

  it("refuses to edit a sent package and leaves it as it was", async () => {
    const sent = await saveSigningDraft(db, {
      principal: manager,
      locationId: world.austin.id,
      title: "Frozen",
      signers: [{ name: "Fay Frozen", email: "fay.frozen@example.com", role: "signer", routingOrder: 1 }],
      documents: [{ name: "Contract.pdf", bytes: await pdf("Frozen contract") }],
      send: true,
    });
    const before = await stateOf(sent.id);
    await expect(
      saveSigningDraft(db, { principal: manager, packageId: sent.id, locationId: world.austin.id, title: "Thawed", signers: [] }),
    ).rejects.toThrow("Only a draft signing package can be edited; this one is sent.");
    expect(await stateOf(sent.id)).toEqual(before);
  });

  it("answers 404 for a draft outside the caller's scope", async () => {
    const draft = await saveSigningDraft(db, {
      principal: manager,
      locationId: world.dallas.id,
      title: "Dallas only",
      signers: [],
    });
    const branch = await resolvePrincipal(db, localSubjectForEmail("branch@demo.local"));
    await expect(
      saveSigningDraft(db, { principal: branch, packageId: draft.id, locationId: world.austin.id, title: "Mine now", signers: [] }),
    ).rejects.toThrow(`Signing package ${draft.id} not found.`);
  });
});
