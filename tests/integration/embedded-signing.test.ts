import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, embeddedSigningTokens, organizations, packageSigners, signerSessions, signingPackages } from "@/db/schema";
import { localSubjectForEmail } from "@/lib/auth/local-tokens";
import { resolvePrincipal } from "@/lib/auth/principal";
import { replaceFramingOrigins, readFramingOrigins } from "@/lib/embedded/allowed-origins";
import { issueEmbeddedUrl, openEmbeddedUrl } from "@/lib/embedded/embedded-url";
import { framingParentOrigin } from "@/lib/embedded/framing-origins";
import { checkFramingOrigin } from "@/lib/embedded/framing-origins";
import { getSignerSession } from "@/lib/signer-access/get-signer-session";
import { signerSessionPrincipal } from "@/lib/signer-access/signer-session-principal";
import { createHash } from "node:crypto";
import { PDFDocument } from "pdf-lib";
import { recordESignature } from "@/lib/esignatures/record-esignature";
import { drawCertificate } from "@/lib/seals/draw-certificate";
import { loadSealEvidence } from "@/lib/seals/load-seal-evidence";
import { pdfTextFlat } from "../helpers/pdf-text";
import { createTestDb, type TestDb } from "../helpers/db";
import { loadDemoWorld, type DemoWorld } from "../helpers/fixtures";
import { createSignerPackage } from "../helpers/signing-fixtures";
import { expectAppError } from "../helpers/app-error";

// Embedded signing: a lender's site frames a single-use, five-minute URL that opens a session for
// one signer of one package; the organization lists the origins allowed to frame it.

let testDb: TestDb;
let world: DemoWorld;
let counter = 0;
const principalFor = (email: string) => resolvePrincipal(testDb.db, localSubjectForEmail(email));
const LENDER = "https://portal.lender.example";

beforeAll(async () => {
  testDb = await createTestDb();
  world = await loadDemoWorld(testDb.db);
  await replaceFramingOrigins(testDb.db, { principal: await principalFor("owner@demo.local"), organizationId: world.austin.organizationId, origins: [LENDER] });
});
afterAll(async () => {
  await testDb.cleanup();
});

async function sentPackage(signerCount = 1) {
  counter += 1;
  const signers = Array.from({ length: signerCount }, (_, i) => ({ email: `embed-${counter}-${i}@example.test`, routingOrder: 1 }));
  return createSignerPackage(testDb.db, { location: world.austin, signers, title: `Embed ${counter}` });
}

describe("framing origins", () => {
  it("accepts exact https origins and loopback http outside production, refuses everything else", () => {
    const dev = { allowLoopbackHttp: true };
    expect(checkFramingOrigin("https://Portal.Lender.example:443", dev)).toEqual({ ok: true, origin: "https://portal.lender.example" });
    expect(checkFramingOrigin("https://portal.lender.example:8443", dev)).toEqual({ ok: true, origin: "https://portal.lender.example:8443" });
    expect(checkFramingOrigin("http://127.0.0.1:4100", dev)).toEqual({ ok: true, origin: "http://127.0.0.1:4100" });
    expect(checkFramingOrigin("http://localhost:4100", dev)).toEqual({ ok: true, origin: "http://localhost:4100" });
    expect(checkFramingOrigin("http://127.0.0.1:4100", { allowLoopbackHttp: false }).ok).toBe(false);
    for (const bad of [
      "http://portal.lender.example",
      "https://portal.lender.example/",
      "https://portal.lender.example/sign",
      "https://portal.lender.example?x=1",
      "https://portal.lender.example#x",
      "https://*.lender.example",
      "*",
      "https://user@portal.lender.example",
      "ftp://portal.lender.example",
      "javascript:alert(1)",
      "portal.lender.example",
      "https://intranet",
      "",
    ]) {
      expect(checkFramingOrigin(bad, dev), bad).toMatchObject({ ok: false });
    }
  });

  it("the organization admin replaces the list; a bad origin refuses the whole list and changes nothing; a manager cannot change it", async () => {
    const admin = await principalFor("owner@demo.local");
    const organizationId = world.austin.organizationId;
    expect(await readFramingOrigins(testDb.db, { principal: admin, organizationId })).toEqual({ organizationId, origins: [LENDER] });
    await expectAppError(replaceFramingOrigins(testDb.db, { principal: admin, organizationId, origins: [LENDER, "https://evil.example/path"] }), 400, /origins\[1\]/);
    await expectAppError(replaceFramingOrigins(testDb.db, { principal: await principalFor("manager@demo.local"), organizationId, origins: [] }), 403);
    const [org] = await testDb.db.select().from(organizations).where(eq(organizations.id, organizationId));
    expect(org!.settings.embedAllowedOrigins).toEqual([LENDER]);
  });
});

describe("embedded signing URLs", () => {
  it("opens once: a session for that signer of that package, proof passed, audited with the origins; a second use changes nothing", async () => {
    const pkg = await sentPackage(2);
    const [signer, other] = pkg.signers;
    const manager = await principalFor("manager@demo.local");
    const now = new Date();
    const issued = await issueEmbeddedUrl(testDb.db, { principal: manager, packageId: pkg.id, signerId: signer!.id, now });
    expect(issued.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(issued.expiresAt.getTime() - now.getTime()).toBe(5 * 60_000);
    // Only the token's SHA-256 is stored.
    const [row] = await testDb.db.select().from(embeddedSigningTokens).where(eq(embeddedSigningTokens.packageId, pkg.id));
    expect(row!.tokenHash).toBe(createHash("sha256").update(issued.token).digest("hex"));
    expect(JSON.stringify(await testDb.db.select().from(auditLog).where(eq(auditLog.packageId, pkg.id)))).not.toContain(issued.token);

    const opened = await openEmbeddedUrl(testDb.db, { token: issued.token, ipAddress: "198.51.100.4", userAgent: "Framed browser" });
    expect(opened).toMatchObject({ state: "opened", packageId: pkg.id, origins: [LENDER] });
    if (opened.state !== "opened") throw new Error("not opened");
    const context = await getSignerSession(testDb.db, { packageId: pkg.id, value: opened.sessionValue });
    expect(context).toMatchObject({ signer: { id: signer!.id }, session: { authMethod: "link" } });
    expect(context!.session.authPassedAt).not.toBeNull();
    expect(signerSessionPrincipal(context!).signerSession).toMatchObject({ signerId: signer!.id, packageId: pkg.id });
    expect(await getSignerSession(testDb.db, { packageId: (await sentPackage()).id, value: opened.sessionValue })).toBeNull();

    const trail = await testDb.db.select().from(auditLog).where(eq(auditLog.packageId, pkg.id));
    expect(trail.find((e) => e.action === "signer.embedded_url_issued")).toMatchObject({ entityId: signer!.id, actorUserId: manager.user.id });
    const started = trail.find((e) => e.action === "signer.embedded_session_started");
    expect(started).toMatchObject({ entityId: signer!.id, actorUserId: null, ipAddress: "198.51.100.4" });
    expect(started!.after).toEqual({
      origins: [LENDER],
      userAgent: "Framed browser",
      sessionId: context!.session.id,
      issuedBy: { userId: manager.user.id, name: manager.user.name, email: "manager@demo.local" },
      urlIssuedAt: now.toISOString(),
    });
    expect(trail.filter((e) => e.action === "signer.auth_passed" && e.entityId === signer!.id)).toHaveLength(1);
    expect(trail.some((e) => e.entityId === other!.id && e.action === "signer.auth_passed")).toBe(false);

    // Used twice: refused, no second session, no second entry.
    const sessions = async () => (await testDb.db.select().from(signerSessions).where(eq(signerSessions.packageId, pkg.id))).length;
    const before = await sessions();
    expect(await openEmbeddedUrl(testDb.db, { token: issued.token })).toEqual({ state: "refused", reason: "used", origins: [LENDER] });
    expect(await sessions()).toBe(before);
    expect(await testDb.db.select().from(auditLog).where(and(eq(auditLog.packageId, pkg.id), eq(auditLog.action, "signer.embedded_session_started")))).toHaveLength(1);
  });

  it("a signature made in the embedded session names it in the trail, and the certificate names the session, the framing site and who issued the URL", async () => {
    const pkg = await sentPackage(2);
    const [signer, other] = pkg.signers;
    const manager = await principalFor("manager@demo.local");
    const issued = await issueEmbeddedUrl(testDb.db, { principal: manager, packageId: pkg.id, signerId: signer!.id });
    const opened = await openEmbeddedUrl(testDb.db, { token: issued.token, ipAddress: "198.51.100.9", userAgent: "Framed browser" });
    if (opened.state !== "opened") throw new Error("not opened");
    const context = (await getSignerSession(testDb.db, { packageId: pkg.id, value: opened.sessionValue }))!;
    const { eSignature } = await recordESignature(testDb.db, {
      principal: signerSessionPrincipal(context),
      packageId: pkg.id,
      documentId: pkg.documents[0]!.id,
      signature: { kind: "typed", text: "Framed Signer", font: "caveat" },
      consent: true,
    });
    const [tokenRow] = await testDb.db.select().from(embeddedSigningTokens).where(eq(embeddedSigningTokens.sessionId, context.session.id));
    const [recorded] = await testDb.db.select().from(auditLog).where(and(eq(auditLog.action, "esignature.recorded"), eq(auditLog.entityId, eSignature.id)));
    expect(recorded!.after).toMatchObject({ authMethod: "link", embeddedSession: { sessionId: context.session.id, embeddedUrlId: tokenRow!.id } });

    const evidence = await loadSealEvidence(testDb.db, { packageId: pkg.id });
    expect(evidence.signers.find((s) => s.id === other!.id)!.embedded).toEqual([]);
    const pdf = await PDFDocument.create();
    await drawCertificate(pdf, { evidence, sealedAt: new Date(), verifyUrl: "http://localhost/verify" });
    const text = await pdfTextFlat(await pdf.save());
    expect(text).toMatch(new RegExp(`Signed in an embedded session inside the lender's site \\(https://portal\\.lender\\.example\\) from .*; URL issued by ${manager.user.name} <manager@demo\\.local>`));
    // Once: only the signer who opened the session.
    expect(text.match(/Signed in an embedded session/g)).toHaveLength(1);
  });

  it("a URL opened inside a page from an origin not on the list is refused and stays unused; from the lender's page it opens", async () => {
    const pkg = await sentPackage();
    const signerId = pkg.signers[0]!.id;
    const manager = await principalFor("manager@demo.local");
    const issued = await issueEmbeddedUrl(testDb.db, { principal: manager, packageId: pkg.id, signerId });
    const frameRequest = (referer: string | null, dest = "iframe") =>
      new Headers({ "sec-fetch-dest": dest, ...(referer ? { referer } : {}) });

    // What the browser says about the parent page: its origin from a frame's Referer, nothing otherwise.
    expect(framingParentOrigin(frameRequest("https://stranger.example/checkout?x=1"))).toBe("https://stranger.example");
    expect(framingParentOrigin(frameRequest("https://PORTAL.Lender.example:443/"))).toBe("https://portal.lender.example");
    expect(framingParentOrigin(frameRequest(null))).toBeNull();
    expect(framingParentOrigin(frameRequest("https://stranger.example/", "document"))).toBeNull();

    const strangerFrame = framingParentOrigin(frameRequest("https://stranger.example/checkout"));
    expect(await openEmbeddedUrl(testDb.db, { token: issued.token, framedBy: strangerFrame })).toEqual({ state: "refused", reason: "origin", origins: [LENDER] });
    const [row] = await testDb.db.select().from(embeddedSigningTokens).where(eq(embeddedSigningTokens.tokenHash, createHash("sha256").update(issued.token).digest("hex")));
    expect(row!.usedAt).toBeNull();
    expect(await testDb.db.select().from(signerSessions).where(eq(signerSessions.packageId, pkg.id))).toHaveLength(0);

    const lenderFrame = framingParentOrigin(frameRequest(`${LENDER}/closing/42`));
    expect(await openEmbeddedUrl(testDb.db, { token: issued.token, framedBy: lenderFrame })).toMatchObject({ state: "opened", packageId: pkg.id });
  });

  it("refuses an expired, unknown or closed URL and changes nothing", async () => {
    const pkg = await sentPackage();
    const signerId = pkg.signers[0]!.id;
    const manager = await principalFor("manager@demo.local");
    const sessions = async () => (await testDb.db.select().from(signerSessions).where(eq(signerSessions.packageId, pkg.id))).length;

    const old = await issueEmbeddedUrl(testDb.db, { principal: manager, packageId: pkg.id, signerId, now: new Date(Date.now() - 6 * 60_000) });
    expect(await openEmbeddedUrl(testDb.db, { token: old.token })).toMatchObject({ state: "refused", reason: "expired" });
    expect(await openEmbeddedUrl(testDb.db, { token: "A".repeat(43) })).toEqual({ state: "refused", reason: "unknown", origins: [] });
    expect(await openEmbeddedUrl(testDb.db, { token: "../../etc" })).toEqual({ state: "refused", reason: "unknown", origins: [] });

    const fresh = await issueEmbeddedUrl(testDb.db, { principal: manager, packageId: pkg.id, signerId });
    await testDb.db.update(packageSigners).set({ status: "signed" }).where(eq(packageSigners.id, signerId));
    expect(await openEmbeddedUrl(testDb.db, { token: fresh.token })).toMatchObject({ state: "refused", reason: "closed" });
    expect(await sessions()).toBe(0);
    const [row] = await testDb.db.select().from(embeddedSigningTokens).where(eq(embeddedSigningTokens.tokenHash, createHash("sha256").update(fresh.token).digest("hex")));
    expect(row!.usedAt).toBeNull();
  });

  it("refuses to issue outside scope, for a finished signer, a closed package, or an organization that lists no origin", async () => {
    const pkg = await sentPackage();
    const signerId = pkg.signers[0]!.id;
    const manager = await principalFor("manager@demo.local");
    const count = async () => (await testDb.db.select().from(embeddedSigningTokens).where(eq(embeddedSigningTokens.packageId, pkg.id))).length;

    await expectAppError(issueEmbeddedUrl(testDb.db, { principal: await principalFor("manager@other.local"), packageId: pkg.id, signerId }), 404);
    await expectAppError(issueEmbeddedUrl(testDb.db, { principal: manager, packageId: pkg.id, signerId: (await sentPackage()).signers[0]!.id }), 404, /not on this package/);
    await expectAppError(issueEmbeddedUrl(testDb.db, { principal: manager, packageId: pkg.id, signerId: "not-a-uuid" }), 404);
    await testDb.db.update(packageSigners).set({ status: "declined" }).where(eq(packageSigners.id, signerId));
    await expectAppError(issueEmbeddedUrl(testDb.db, { principal: manager, packageId: pkg.id, signerId }), 409, /already declined/);
    await testDb.db.update(packageSigners).set({ status: "notified" }).where(eq(packageSigners.id, signerId));
    await testDb.db.update(signingPackages).set({ status: "cancelled" }).where(eq(signingPackages.id, pkg.id));
    await expectAppError(issueEmbeddedUrl(testDb.db, { principal: manager, packageId: pkg.id, signerId }), 409, /cancelled/);
    await testDb.db.update(signingPackages).set({ status: "sent" }).where(eq(signingPackages.id, pkg.id));

    const admin = await principalFor("owner@demo.local");
    const organizationId = world.austin.organizationId;
    await replaceFramingOrigins(testDb.db, { principal: admin, organizationId, origins: [] });
    try {
      await expectAppError(issueEmbeddedUrl(testDb.db, { principal: manager, packageId: pkg.id, signerId }), 409, /No origin/);
    } finally {
      await replaceFramingOrigins(testDb.db, { principal: admin, organizationId, origins: [LENDER] });
    }
    expect(await count()).toBe(0);
  });
});
