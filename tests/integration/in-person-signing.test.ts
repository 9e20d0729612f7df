import { and, eq } from "drizzle-orm";
import { PDFDocument } from "pdf-lib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, inPersonSignings, packageSigners, signerSessions, signingPackages } from "@/db/schema";
import { localSubjectForEmail } from "@/lib/auth/local-tokens";
import { resolvePrincipal } from "@/lib/auth/principal";
import { recordESignature } from "@/lib/esignatures/record-esignature";
import { endInPersonSigning } from "@/lib/in-person/end-in-person-signing";
import { IdentificationSchema } from "@/lib/in-person/identification";
import { startInPersonSigning } from "@/lib/in-person/start-in-person-signing";
import { drawCertificate } from "@/lib/seals/draw-certificate";
import { loadSealEvidence } from "@/lib/seals/load-seal-evidence";
import { getSignerSession } from "@/lib/signer-access/get-signer-session";
import { signerSessionPrincipal } from "@/lib/signer-access/signer-session-principal";
import { callApi, tokenFor } from "../helpers/api";
import { pdfTextFlat } from "../helpers/pdf-text";
import { createTestDb, type TestDb } from "../helpers/db";
import { loadDemoWorld, type DemoWorld } from "../helpers/fixtures";
import { createSignerPackage } from "../helpers/signing-fixtures";
import { expectAppError } from "../helpers/app-error";

// Signing at the desk: a manager checks a signer's identification and hands over the device, which
// then holds a session for that signer of that package only; the trail and the certificate say so.

let testDb: TestDb;
let world: DemoWorld;
let counter = 0;
const principalFor = (email: string) => resolvePrincipal(testDb.db, localSubjectForEmail(email));
const license = { idType: "drivers_license", idIssuer: "Texas", idLastFour: "4821" } as const;

beforeAll(async () => {
  testDb = await createTestDb();
  world = await loadDemoWorld(testDb.db);
});
afterAll(async () => {
  await testDb.cleanup();
});

async function sentPackage(signerCount = 1) {
  counter += 1;
  const signers = Array.from({ length: signerCount }, (_, i) => ({ email: `desk-${counter}-${i}@example.test`, routingOrder: 1 }));
  return createSignerPackage(testDb.db, { location: world.austin, signers, title: `Desk ${counter}` });
}

describe("startInPersonSigning", () => {
  it("opens a proven session for that one signer, records the host and the identification, and signing in it is evidence of both", async () => {
    const pkg = await sentPackage(2);
    const [signer, other] = pkg.signers;
    const manager = await principalFor("manager@demo.local");
    const started = await startInPersonSigning(testDb.db, {
      principal: manager,
      packageId: pkg.id,
      signerId: signer!.id,
      identification: IdentificationSchema.parse({ ...license, idLastFour: "4821 " }),
      ipAddress: "203.0.113.7",
      userAgent: "Tablet at the desk",
    });
    expect(started.sessionValue).toMatch(/^[A-Za-z0-9_-]{40,}$/);

    // The session is the signer's, proven in person, for this package only.
    const context = await getSignerSession(testDb.db, { packageId: pkg.id, value: started.sessionValue });
    expect(context).toMatchObject({ signer: { id: signer!.id }, session: { authMethod: "in_person" } });
    expect(context!.session.authPassedAt).not.toBeNull();
    expect(await getSignerSession(testDb.db, { packageId: (await sentPackage()).id, value: started.sessionValue })).toBeNull();
    const principal = signerSessionPrincipal(context!);
    expect(principal.roles).toEqual([]);
    expect(principal.signerSession).toMatchObject({ signerId: signer!.id, method: "in_person" });

    const trail = await testDb.db.select().from(auditLog).where(eq(auditLog.packageId, pkg.id));
    const startedEntry = trail.find((e) => e.action === "signer.in_person_started");
    expect(startedEntry).toMatchObject({ entityId: signer!.id, actorUserId: manager.user.id, ipAddress: "203.0.113.7" });
    expect(startedEntry!.after).toEqual({ host: { name: "Max Manager", email: "manager@demo.local" }, identification: license });
    expect(trail.find((e) => e.action === "signer.auth_passed" && e.entityId === signer!.id)!.after).toMatchObject({ method: "in_person" });

    // The signer signs in that session; the certificate names the host and the identification.
    await recordESignature(testDb.db, {
      principal,
      packageId: pkg.id,
      documentId: pkg.documents[0]!.id,
      signature: { kind: "typed", text: "Desk Signer", font: "great-vibes" },
      consent: true,
    });
    const evidence = await loadSealEvidence(testDb.db, { packageId: pkg.id });
    expect(evidence.signers.find((s) => s.id === signer!.id)!.inPerson).toEqual([
      expect.objectContaining({ hostName: "Max Manager", hostEmail: "manager@demo.local", ...license }),
    ]);
    expect(evidence.signers.find((s) => s.id === other!.id)!.inPerson).toEqual([]);
    const pdf = await PDFDocument.create();
    await drawCertificate(pdf, { evidence, sealedAt: new Date(), verifyUrl: "http://localhost/verify" });
    const text = await pdfTextFlat(await pdf.save());
    expect(text).toContain("In person (identification checked by the host)");
    expect(text).toMatch(/Signed in person, hosted by Max Manager <manager@demo\.local> .*identification checked: Driver's license, Texas, ending 4821/);
  });

  it("ends when the device is handed back: the session opens nothing more, and the trail says so", async () => {
    const pkg = await sentPackage();
    const started = await startInPersonSigning(testDb.db, { principal: await principalFor("manager@demo.local"), packageId: pkg.id, signerId: pkg.signers[0]!.id, identification: license });
    const context = (await getSignerSession(testDb.db, { packageId: pkg.id, value: started.sessionValue }))!;
    expect(await endInPersonSigning(testDb.db, { sessionId: context.session.id })).toEqual({ packageId: pkg.id });
    expect(await endInPersonSigning(testDb.db, { sessionId: context.session.id })).toBeNull();
    expect(await getSignerSession(testDb.db, { packageId: pkg.id, value: started.sessionValue })).toBeNull();
    const [row] = await testDb.db.select().from(inPersonSignings).where(eq(inPersonSignings.sessionId, context.session.id));
    expect(row!.endedAt).not.toBeNull();
    expect(await testDb.db.select().from(auditLog).where(and(eq(auditLog.packageId, pkg.id), eq(auditLog.action, "signer.in_person_ended")))).toHaveLength(1);
  });

  it("refuses what it cannot host, and changes nothing", async () => {
    const pkg = await sentPackage();
    const signerId = pkg.signers[0]!.id;
    const manager = await principalFor("manager@demo.local");
    const sessions = async () => (await testDb.db.select().from(signerSessions).where(eq(signerSessions.packageId, pkg.id))).length;

    // Another organization's manager: the package does not exist for them.
    await expectAppError(startInPersonSigning(testDb.db, { principal: await principalFor("manager@other.local"), packageId: pkg.id, signerId, identification: license }), 404);
    // A signer of another package.
    const elsewhere = await sentPackage();
    await expectAppError(startInPersonSigning(testDb.db, { principal: manager, packageId: pkg.id, signerId: elsewhere.signers[0]!.id, identification: license }), 404, /not on this package/);
    // A signer who already signed, a package that is not open.
    await testDb.db.update(packageSigners).set({ status: "signed" }).where(eq(packageSigners.id, signerId));
    await expectAppError(startInPersonSigning(testDb.db, { principal: manager, packageId: pkg.id, signerId, identification: license }), 409, /already signed/);
    await testDb.db.update(packageSigners).set({ status: "notified" }).where(eq(packageSigners.id, signerId));
    await testDb.db.update(signingPackages).set({ status: "cancelled" }).where(eq(signingPackages.id, pkg.id));
    await expectAppError(startInPersonSigning(testDb.db, { principal: manager, packageId: pkg.id, signerId, identification: license }), 409, /cancelled/);
    // A signer has no business hosting.
    await expectAppError(startInPersonSigning(testDb.db, { principal: await principalFor(pkg.signers[0]!.email), packageId: pkg.id, signerId, identification: license }), 403);
    expect(await sessions()).toBe(0);
    expect(await testDb.db.select().from(inPersonSignings).where(eq(inPersonSignings.packageId, pkg.id))).toEqual([]);
  });

  it("takes only the last four characters of the identification, and names each field that is wrong", () => {
    expect(IdentificationSchema.safeParse({ idType: "passport", idIssuer: "United States", idLastFour: "12345678" }).success).toBe(false);
    const bad = IdentificationSchema.safeParse({ idType: "library_card", idIssuer: "", idLastFour: "12" });
    expect(bad.success).toBe(false);
    expect(bad.error!.issues.map((i) => i.path[0]).sort()).toEqual(["idIssuer", "idLastFour", "idType"]);
    expect(IdentificationSchema.parse({ idType: "passport", idIssuer: " United States ", idLastFour: "x9z1" })).toEqual({ idType: "passport", idIssuer: "United States", idLastFour: "X9Z1" });
  });

  it("is never a method a package or a signer can ask for through /v1", async () => {
    const pkg = await sentPackage();
    const res = await callApi(`/v1/signing/manager/signings/${pkg.id}/signers`, {
      method: "POST",
      token: await tokenFor("manager@demo.local"),
      json: { name: "Walk In", email: "walkin@example.test", role: "co_signer", routingOrder: 1, authMethod: "in_person" },
    });
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/authMethod/);
  });
});
