import { and, eq } from "drizzle-orm";
import { auditLog, packageSigners } from "@/db/schema";
import { e2eDatabaseUrl, expect, expectNoAxeViolations, signInAs, test } from "./support/fixtures";
import { createE2ePackage, withE2eDb } from "./support/signing-data";

const SAM = "signer@demo.local";

/** A sent package whose signer the manager marked Spanish. */
async function spanishPackage(title: string) {
  const pkg = await createE2ePackage(title, [{ email: SAM }]);
  await withE2eDb((db) => db.update(packageSigners).set({ language: "es" }).where(eq(packageSigners.packageId, pkg.id)));
  return pkg;
}

test.describe("a Spanish-speaking borrower", () => {
  test.beforeEach(() => {
    test.skip(!e2eDatabaseUrl(), "needs the run's PostgreSQL database to create packages (PGlite is held by the server)");
  });

  test("reads the package page and the disclosure in Spanish, consents (recorded as es), and can switch to English", async ({ page, context }, testInfo) => {
    const pkg = await spanishPackage("Préstamo");
    await signInAs(page, SAM);
    await page.goto(`/signings/${pkg.id}`);
    await expect(page.getByText("De Demo Lending Co. · Austin Branch")).toBeVisible();
    await expect(page.getByRole("heading", { name: "Acepte firmar electrónicamente" })).toBeVisible();
    await expect(page.getByRole("list", { name: "Pasos" })).toContainText("Revisar los documentos");
    await expect(page.locator("[lang=es]").first()).toBeVisible();
    await expectNoAxeViolations(page);
    await page.screenshot({ path: testInfo.outputPath(`spanish-${testInfo.project.name}.png`), fullPage: true });

    await page.getByLabel("He leído esta divulgación y acepto recibir y firmar estos documentos de forma electrónica.").check();
    await page.getByRole("button", { name: "Aceptar y continuar" }).click();
    await expect(page.getByRole("heading", { name: "Su firma" })).toBeVisible();
    const after = await withE2eDb(async (db) => {
      const [entry] = await db.select().from(auditLog).where(and(eq(auditLog.packageId, pkg.id), eq(auditLog.action, "signer.consented")));
      return entry?.after;
    });
    expect(after).toMatchObject({ disclosureVersion: "2025-01", disclosureLanguage: "es" });

    // The borrower's own choice wins over the lender's, and is remembered.
    await page.getByRole("button", { name: "View this page in English" }).click();
    await expect(page.getByText("From Demo Lending Co. · Austin Branch")).toBeVisible();
    await expect(page.getByRole("heading", { name: "Your signature" })).toBeVisible();
    await page.reload();
    await expect(page.getByRole("button", { name: "Ver esta página en español" })).toBeVisible();
    await expectNoAxeViolations(page);
    await context.clearCookies({ name: "borrower_locale" });
  });
});

test.describe("the language switcher before hydration", { tag: "@desktop" }, () => {
  test.use({ javaScriptEnabled: false });

  test("switches with a plain form post", async ({ page }) => {
    test.skip(!e2eDatabaseUrl(), "needs the run's PostgreSQL database to create packages (PGlite is held by the server)");
    const pkg = await spanishPackage("Sin JavaScript");
    await signInAs(page, SAM);
    await page.goto(`/signings/${pkg.id}`);
    await expect(page.getByRole("heading", { name: "Acepte firmar electrónicamente" })).toBeVisible();
    await page.getByRole("button", { name: "View this page in English" }).click();
    await expect(page.getByRole("heading", { name: "Agree to sign electronically" })).toBeVisible();
    expect(new URL(page.url()).pathname).toBe(`/signings/${pkg.id}`);
  });
});
