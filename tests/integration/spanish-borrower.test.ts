import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { handleConsentForm } from "@/app/(signer)/signings/[id]/consent-form";
import { auditLog } from "@/db/schema";
import { NewPackageSignerSchema } from "@/lib/api/schemas/signers";
import { UpdateWorkspaceSettingsSchema } from "@/lib/api/schemas/workspace";
import { localSubjectForEmail } from "@/lib/auth/local-tokens";
import { resolvePrincipal, type Principal } from "@/lib/auth/principal";
import { renderAgreementPdf } from "@/lib/pdf/pdf";
import { disclosureLine } from "@/lib/seals/draw-certificate";
import { loadSealEvidence } from "@/lib/seals/load-seal-evidence";
import { viewAccessLink } from "@/lib/signer-access/open-access-link";
import { createSigning } from "@/lib/signings/create-signing";
import { getSignerPackagePage } from "@/lib/views/get-signer-package-page";
import { sendSigning } from "@/lib/signings/send-signing";
import { updateWorkspaceSettings } from "@/lib/workspace/update-workspace-settings";
import { lastDeliveredMailTo } from "../helpers/mail";
import { createTestDb, type TestDb } from "../helpers/db";
import { loadDemoWorld, type DemoWorld } from "../helpers/fixtures";
import { ensureUser } from "../helpers/signing-fixtures";

// A borrower who reads Spanish: the manager sets the signer's language (or the organization's
// default), and the invitation, the package page's language and the consent record follow it.

let testDb: TestDb;
let world: DemoWorld;
let manager: Principal;
let counter = 0;
const evidence = { ipAddress: "203.0.113.90", userAgent: "Mozilla/5.0 (Spanish test)" };

beforeAll(async () => {
  testDb = await createTestDb();
  world = await loadDemoWorld(testDb.db);
  manager = await resolvePrincipal(testDb.db, localSubjectForEmail("manager@demo.local"));
});

afterAll(async () => {
  await testDb.cleanup();
});

async function sendPackage(signers: { email: string; language?: "en" | "es" | null }[]) {
  counter += 1;
  for (const s of signers) await ensureUser(testDb.db, s.email);
  const bytes = await renderAgreementPdf({ title: `Préstamo ${counter}`, parties: ["Borrower"], pages: 1 });
  const created = await createSigning(testDb.db, {
    principal: manager,
    locationId: world.austin.id,
    title: `Loan ${counter}`,
    signers: signers.map((s, i) => ({ name: `Borrower ${i + 1}`, email: s.email, role: "signer" as const, routingOrder: 1, language: s.language })),
    documents: [{ name: "Note.pdf", bytes }],
  });
  await sendSigning(testDb.db, { principal: manager, packageId: created.id });
  return created.id;
}

/** The mail the send-email job delivers (to the dev outbox without SMTP_URL), newest to `to`. */
async function mailTo(to: string) {
  return lastDeliveredMailTo(testDb.db, to);
}

describe("Spanish for the borrower", () => {
  it("invites a signer the manager marked Spanish in Spanish, and the others in English", async () => {
    await sendPackage([
      { email: "rosa@example.test", language: "es" },
      { email: "sam@example.test" },
    ]);
    const spanish = await mailTo("rosa@example.test");
    expect(spanish.subject).toBe("Firme, por favor: Loan 1");
    expect(spanish.text).toContain("Hola, Borrower 1:");
    expect(spanish.text).toContain("Tiene documentos para revisar y firmar.");
    expect(spanish.text).toMatch(/Abrir su paquete de firma: http\S+\/access\//);
    expect(spanish.html).toContain('<html lang="es">');
    const english = await mailTo("sam@example.test");
    expect(english.subject).toBe("Please sign: Loan 1");
    expect(english.text).toContain("Hello Borrower 2,");
  });

  it("follows the organization's default language for signers without their own, and the signer's own over it", async () => {
    const owner = await resolvePrincipal(testDb.db, localSubjectForEmail("owner@demo.local"));
    const settings = await updateWorkspaceSettings(testDb.db, { principal: owner, organizationId: world.austin.organizationId, change: { defaultLanguage: "es" } });
    expect(settings.defaultLanguage).toBe("es");
    try {
      const packageId = await sendPackage([{ email: "default-es@example.test" }, { email: "keeps-en@example.test", language: "en" }]);
      expect((await mailTo("default-es@example.test")).subject).toMatch(/^Firme, por favor:/);
      expect((await mailTo("keeps-en@example.test")).subject).toMatch(/^Please sign:/);

      // The access link's page and the package page start in the same language.
      const token = /\/access\/([A-Za-z0-9_-]{43})/.exec((await mailTo("default-es@example.test")).text)![1]!;
      expect(await viewAccessLink(testDb.db, { token })).toMatchObject({ state: "open", language: "es" });
      const signer = await resolvePrincipal(testDb.db, localSubjectForEmail("default-es@example.test"));
      expect((await getSignerPackagePage(testDb.db, { principal: signer, packageId })).language).toBe("es");
    } finally {
      await updateWorkspaceSettings(testDb.db, { principal: owner, organizationId: world.austin.organizationId, change: { defaultLanguage: null } });
    }
  });

  it("records the disclosure's version and language with the consent, and the certificate says both", async () => {
    const packageId = await sendPackage([{ email: "consent-es@example.test", language: "es" }]);
    const principal = await resolvePrincipal(testDb.db, localSubjectForEmail("consent-es@example.test"));
    const form = (fields: Record<string, string>) => {
      const formData = new FormData();
      for (const [k, v] of Object.entries(fields)) formData.set(k, v);
      return formData;
    };

    // Without the box ticked the form answers in the disclosure's language.
    const refused = await handleConsentForm(testDb.db, {
      principal,
      evidence,
      formData: form({ signingId: packageId, disclosureVersion: "2025-01", disclosureLanguage: "es" }),
    });
    expect(refused).toEqual({ status: "error", message: "Marque la casilla para aceptar antes de continuar." });

    const accepted = await handleConsentForm(testDb.db, {
      principal,
      evidence,
      formData: form({ signingId: packageId, accept: "yes", disclosureVersion: "2025-01", disclosureLanguage: "es" }),
    });
    expect(accepted.status).toBe("accepted");
    const [entry] = await testDb.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.packageId, packageId), eq(auditLog.action, "signer.consented")));
    expect(entry!.after).toMatchObject({ disclosureVersion: "2025-01", disclosureLanguage: "es" });

    const evidenceForSeal = await loadSealEvidence(testDb.db, { packageId });
    const sealSigner = evidenceForSeal.signers.find((s) => s.email === "consent-es@example.test")!;
    expect(sealSigner.consentDisclosure).toEqual({ version: "2025-01", language: "es" });
    expect(disclosureLine(sealSigner.consentDisclosure!)).toBe("version 2025-01, in Spanish");
  });

  it("takes only en or es for a signer's language and the workspace default (/v1 schemas)", () => {
    expect(NewPackageSignerSchema.safeParse({ name: "A", email: "a@example.test", language: "es" }).success).toBe(true);
    expect(NewPackageSignerSchema.safeParse({ name: "A", email: "a@example.test", language: "fr" }).success).toBe(false);
    expect(UpdateWorkspaceSettingsSchema.safeParse({ defaultLanguage: "es" }).success).toBe(true);
    expect(UpdateWorkspaceSettingsSchema.safeParse({ defaultLanguage: "de" }).success).toBe(false);
  });
});
