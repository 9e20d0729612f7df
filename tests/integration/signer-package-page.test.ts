import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, bankItems, flows, organizations, packageSigners, signingPackages } from "@/db/schema";
import { recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { localSubjectForEmail } from "@/lib/auth/local-tokens";
import { resolvePrincipal } from "@/lib/auth/principal";
import { getSignedDocumentLabels } from "@/lib/esignatures/get-signed-document-labels";
import { recordESignature } from "@/lib/esignatures/record-esignature";
import { declineSigning } from "@/lib/signings/decline-signing";
import { getSignerPackagePage } from "@/lib/views/get-signer-package-page";
import { getSigningConsent } from "@/lib/signings/get-signing-consent";
import { recordSigningConsent } from "@/lib/signings/record-signing-consent";
import { listSigningsForHome } from "@/lib/signings/list-signings-for-home";
import { createTestDb, type TestDb } from "../helpers/db";
import { auditEntriesFor, loadDemoWorld, type DemoWorld } from "../helpers/fixtures";
import { createSignerPackage, getDemoPackage, type FixtureSigner } from "../helpers/signing-fixtures";

let testDb: TestDb;
let world: DemoWorld;
let counter = 0;

beforeAll(async () => {
  testDb = await createTestDb();
  world = await loadDemoWorld(testDb.db);
});

afterAll(async () => {
  await testDb.cleanup();
});

const principalFor = (email: string) => resolvePrincipal(testDb.db, localSubjectForEmail(email));

async function pageFor(email: string, packageId: string) {
  return getSignerPackagePage(testDb.db, { principal: await principalFor(email), packageId, ipAddress: "203.0.113.9" });
}

async function fixture(signers: FixtureSigner[], options: { documentCount?: number; location?: DemoWorld["austin"] } = {}) {
  counter += 1;
  return createSignerPackage(testDb.db, { location: options.location ?? world.austin, title: `Page ${counter}`, signers, documentCount: options.documentCount });
}

async function signAll(email: string, pkg: Awaited<ReturnType<typeof fixture>>) {
  const principal = await principalFor(email);
  for (const doc of pkg.documents) {
    await recordESignature(testDb.db, {
      principal,
      packageId: pkg.id,
      documentId: doc.id,
      signature: { kind: "typed", text: email, font: "dancing-script" },
      consent: true,
      documentSha256: doc.sha256,
    });
  }
}

async function signerRow(packageId: string, email: string) {
  const rows = await testDb.db.select().from(packageSigners).where(eq(packageSigners.packageId, packageId));
  return rows.find((r) => r.email === email)!;
}

describe("getSignerPackagePage", () => {
  it("opens the demo package in the signer's turn: sender, the organization's default flow, viewed recorded once", async () => {
    const demo = await getDemoPackage(testDb.db);
    const page = await pageFor("signer@demo.local", demo.id);
    expect(page.state).toEqual({ kind: "your_turn" });
    expect(page.sender).toEqual({ organizationName: "Demo Lending Co.", locationName: "Austin Branch" });
    expect(page.flow.steps).toEqual([
      { step: "review", status: "current" },
      { step: "sign", status: "upcoming" },
      { step: "link_bank", status: "upcoming" },
      { step: "done", status: "upcoming" },
    ]);
    expect(page.view.me.status).toBe("viewed");
    expect(page.view.coSigners).toEqual([expect.objectContaining({ name: "Casey Cosigner", status: "notified", routingOrder: 1 })]);
    expect(JSON.stringify(page.view.coSigners)).not.toContain("cosigner@demo.local");
    expect(page.signable).toEqual([{ id: demo.document.id, name: demo.document.name, sha256: demo.document.sha256, signed: false, signedAt: null }]);
    expect(page.consentGiven).toBe(false);
    expect(page.bank).toEqual({ connected: false, institutionName: null });
    // No branding set: the organization's name and the default blue.
    expect(page.brand).toEqual({ displayName: "Demo Lending Co.", color: "#1d4ed8", logoPath: null });

    await pageFor("signer@demo.local", demo.id);
    const viewed = (await auditEntriesFor(testDb.db, demo.id)).filter((e) => e.action === "signer.viewed");
    expect(viewed).toHaveLength(1);
    expect(viewed[0]!.ipAddress).toBe("203.0.113.9");
  });

  it("makes a later routing group wait, naming who, without marking them viewed, until the earlier group has signed", async () => {
    const pkg = await fixture([{ email: "first@page.test", routingOrder: 1 }, { email: "second@page.test", routingOrder: 2 }]);
    const waiting = await pageFor("second@page.test", pkg.id);
    expect(waiting.state).toEqual({ kind: "waiting", waitingFor: ["first"] });
    expect(waiting.flow.current).toBe("review");
    expect((await signerRow(pkg.id, "second@page.test")).status).toBe("pending");
    expect((await auditEntriesFor(testDb.db, pkg.id)).filter((e) => e.action === "signer.viewed")).toHaveLength(0);

    await signAll("first@page.test", pkg);
    const turn = await pageFor("second@page.test", pkg.id);
    expect(turn.state).toEqual({ kind: "your_turn" });
    expect(turn.view.me.status).toBe("viewed");
  });

  it("moves to the sign step after a first signature, and to signed with times once all are signed", async () => {
    const pkg = await fixture([{ email: "two-docs@page.test" }, { email: "other-signer@page.test" }], { documentCount: 2 });
    const principal = await principalFor("two-docs@page.test");
    await recordESignature(testDb.db, {
      principal,
      packageId: pkg.id,
      documentId: pkg.documents[0]!.id,
      signature: { kind: "typed", text: "Two Docs", font: "dancing-script" },
      consent: true,
    });
    const partway = await pageFor("two-docs@page.test", pkg.id);
    expect(partway.state.kind).toBe("your_turn");
    expect(partway.flow.current).toBe("sign");
    expect(partway.signable.map((d) => d.signed)).toEqual([true, false]);
    expect(partway.signable[0]!.signedAt).toEqual(expect.any(String));

    await signAll("two-docs@page.test", pkg);
    const done = await pageFor("two-docs@page.test", pkg.id);
    expect(done.state).toEqual({ kind: "signed" });
    // The demo organization's default flow has a bank step and no bank is linked.
    expect(done.flow.current).toBe("link_bank");
    expect(done.flow.steps.map((s) => s.status)).toEqual(["complete", "complete", "current", "upcoming"]);
    expect(done.signable.every((d) => d.signed && d.signedAt !== null)).toBe(true);

    const user = await signerRow(pkg.id, "two-docs@page.test");
    await testDb.db.insert(bankItems).values({ userId: user.userId!, itemId: `item-${pkg.id}`, institutionId: "ins_1", institutionName: "First Platypus Bank", accessTokenCiphertext: "test-ciphertext" });
    const linked = await pageFor("two-docs@page.test", pkg.id);
    expect(linked.bank).toEqual({ connected: true, institutionName: "First Platypus Bank" });
    expect(linked.flow.current).toBe("done");
  });

  it("shows a declined package to the decliner with their reason and to the co-signer with who declined", async () => {
    const pkg = await fixture([{ email: "decliner@page.test" }, { email: "bystander@page.test" }]);
    await declineSigning(testDb.db, { principal: await principalFor("decliner@page.test"), packageId: pkg.id, reason: "Wrong amount." });
    const mine = await pageFor("decliner@page.test", pkg.id);
    expect(mine.state).toEqual({ kind: "declined", byMe: true, declinedBy: null });
    expect(mine.myDeclineReason).toBe("Wrong amount.");
    expect(mine.flow).toEqual({ current: null, steps: expect.arrayContaining([{ step: "sign", status: "upcoming" }]) });
    const theirs = await pageFor("bystander@page.test", pkg.id);
    expect(theirs.state).toEqual({ kind: "declined", byMe: false, declinedBy: "decliner" });
    expect(theirs.myDeclineReason).toBeNull();
    expect((await signerRow(pkg.id, "bystander@page.test")).status).toBe("notified");
  });

  it("shows cancelled with the sender's reason, and expired both after the sweep and past the deadline before it", async () => {
    const cancelled = await fixture([{ email: "cancel@page.test" }]);
    await testDb.db.update(signingPackages).set({ status: "cancelled", cancelledAt: new Date(), cancelReason: "Replaced by a new package." }).where(eq(signingPackages.id, cancelled.id));
    const page = await pageFor("cancel@page.test", cancelled.id);
    expect(page.state).toEqual({ kind: "cancelled" });
    expect(page.cancelReason).toBe("Replaced by a new package.");

    const swept = await fixture([{ email: "expired@page.test" }]);
    await testDb.db.update(signingPackages).set({ status: "expired" }).where(eq(signingPackages.id, swept.id));
    expect((await pageFor("expired@page.test", swept.id)).state).toEqual({ kind: "expired" });

    const overdue = await fixture([{ email: "overdue@page.test" }]);
    await testDb.db.update(signingPackages).set({ expiresAt: new Date(Date.now() - 60_000) }).where(eq(signingPackages.id, overdue.id));
    expect((await pageFor("overdue@page.test", overdue.id)).state).toEqual({ kind: "expired" });
    expect((await signerRow(overdue.id, "overdue@page.test")).status).toBe("notified");
  });

  it("answers 404 for somebody else's package, a draft and a malformed id", async () => {
    const demo = await getDemoPackage(testDb.db);
    for (const [email, id] of [
      ["manager@demo.local", demo.id],
      ["signer@demo.local", demo.draftId],
      ["signer@demo.local", "not-a-uuid"],
    ] as const) {
      await expect(pageFor(email, id)).rejects.toMatchObject({ code: "not_found" });
    }
  });

  it("uses the package's own flow, never another organization's, and review → sign → done without any", async () => {
    const pkg = await fixture([{ email: "flow@page.test" }]);
    const [own] = await testDb.db.insert(flows).values({ organizationId: world.austin.organizationId, name: "Upload", steps: ["sign", "upload_documents", "done"] }).returning();
    await testDb.db.update(signingPackages).set({ flowId: own!.id }).where(eq(signingPackages.id, pkg.id));
    const page = await pageFor("flow@page.test", pkg.id);
    expect(page.flow.steps).toEqual([
      { step: "sign", status: "current" },
      { step: "upload_documents", status: "upcoming" },
      { step: "done", status: "upcoming" },
    ]);
    expect(page.bank).toBeNull();

    const tulsa = await fixture([{ email: "tulsa@page.test" }], { location: world.tulsa });
    await testDb.db.update(signingPackages).set({ flowId: own!.id }).where(eq(signingPackages.id, tulsa.id));
    const [otherDefault] = await testDb.db.select().from(flows).where(eq(flows.organizationId, world.tulsa.organizationId));
    expect((await pageFor("tulsa@page.test", tulsa.id)).flow.steps.map((s) => s.step)).toEqual(otherDefault!.steps);

    await testDb.db.delete(flows).where(eq(flows.organizationId, world.tulsa.organizationId));
    expect((await pageFor("tulsa@page.test", tulsa.id)).flow.steps.map((s) => s.step)).toEqual(["review", "sign", "done"]);
  });

  it("reports consent once the signer's signer.consented entry is in the package's audit trail", async () => {
    const pkg = await fixture([{ email: "consent@page.test" }, { email: "consent-other@page.test" }]);
    const me = await signerRow(pkg.id, "consent@page.test");
    const other = await signerRow(pkg.id, "consent-other@page.test");
    await recordAuditEntry(testDb.db, {
      organizationId: world.austin.organizationId,
      packageId: pkg.id,
      actorUserId: other.userId,
      action: "signer.consented",
      entityType: "package_signer",
      entityId: other.id,
    });
    expect((await pageFor("consent@page.test", pkg.id)).consentGiven).toBe(false);
    await recordAuditEntry(testDb.db, {
      organizationId: world.austin.organizationId,
      packageId: pkg.id,
      actorUserId: me.userId,
      action: "signer.consented",
      entityType: "package_signer",
      entityId: me.id,
    });
    expect((await pageFor("consent@page.test", pkg.id)).consentGiven).toBe(true);
    expect(await testDb.db.select().from(auditLog).where(eq(auditLog.action, "signer.consented"))).toHaveLength(2);
  });

  it("decides consent by the signer's own row, as the sign action does, not by who wrote the entry", async () => {
    const pkg = await fixture([{ email: "consent-rule@page.test" }, { email: "consent-rule-other@page.test" }]);
    const me = await signerRow(pkg.id, "consent-rule@page.test");
    const other = await signerRow(pkg.id, "consent-rule-other@page.test");
    const principal = await principalFor("consent-rule@page.test");
    // An entry written by this user about the other signer's row is not this signer's consent.
    await recordAuditEntry(testDb.db, {
      organizationId: world.austin.organizationId,
      packageId: pkg.id,
      actorUserId: me.userId,
      action: "signer.consented",
      entityType: "package_signer",
      entityId: other.id,
    });
    expect(await getSigningConsent(testDb.db, { principal, packageId: pkg.id })).toBeNull();
    expect((await pageFor("consent-rule@page.test", pkg.id)).consentGiven).toBe(false);

    await recordSigningConsent(testDb.db, { principal, packageId: pkg.id, disclosureVersion: "test", ipAddress: "203.0.113.9", userAgent: "vitest" });
    expect(await getSigningConsent(testDb.db, { principal, packageId: pkg.id })).toMatchObject({ signerId: me.id });
    expect((await pageFor("consent-rule@page.test", pkg.id)).consentGiven).toBe(true);
  });
});

describe("listSigningsForHome: whose turn", () => {
  it("marks a package waiting on an earlier routing group until that group has signed", async () => {
    const pkg = await fixture([{ email: "home-first@page.test", routingOrder: 1 }, { email: "home-second@page.test", routingOrder: 2 }]);
    const itemFor = async (email: string) =>
      (await listSigningsForHome(testDb.db, { principal: await principalFor(email) })).assigned.items.find((i) => i.id === pkg.id)!;
    expect((await itemFor("home-second@page.test")).waitingOnEarlier).toBe(true);
    expect((await itemFor("home-first@page.test")).waitingOnEarlier).toBe(false);
    await signAll("home-first@page.test", pkg);
    expect((await itemFor("home-second@page.test")).waitingOnEarlier).toBe(false);
  });
});

describe("getSignedDocumentLabels", () => {
  it("names documents of the caller's packages only", async () => {
    const mine = await fixture([{ email: "labels@page.test" }]);
    const theirs = await fixture([{ email: "not-labels@page.test" }]);
    const labels = await getSignedDocumentLabels(testDb.db, {
      principal: await principalFor("labels@page.test"),
      documentIds: [mine.documents[0]!.id, theirs.documents[0]!.id, "junk"],
    });
    expect([...labels.entries()]).toEqual([[mine.documents[0]!.id, { documentName: "Document 1.pdf", packageId: mine.id, packageTitle: expect.stringMatching(/^Page \d+$/) }]]);
  });
});

describe("the lender's brand on the signer's page", () => {
  it("shows the organization's display name and colour; a colour stored some other way that is not #rrggbb never reaches the page", async () => {
    const demo = await getDemoPackage(testDb.db);
    const [org] = await testDb.db.select().from(organizations).where(eq(organizations.id, demo.organizationId));
    await testDb.db.update(organizations).set({ settings: { ...org!.settings, displayName: "Acme Home Loans", brandColor: "#0f5132" } }).where(eq(organizations.id, org!.id));
    try {
      expect((await pageFor("signer@demo.local", demo.id)).brand).toEqual({ displayName: "Acme Home Loans", color: "#0f5132", logoPath: null });
      await testDb.db.update(organizations).set({ settings: { ...org!.settings, brandColor: "red;background:url(x)" } }).where(eq(organizations.id, org!.id));
      expect((await pageFor("signer@demo.local", demo.id)).brand.color).toBe("#1d4ed8");
    } finally {
      await testDb.db.update(organizations).set({ settings: org!.settings }).where(eq(organizations.id, org!.id));
    }
  });
});
