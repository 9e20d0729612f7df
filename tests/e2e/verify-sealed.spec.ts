import { readFile } from "node:fs/promises";
import { eq } from "drizzle-orm";
import { packageDocuments, packageSeals } from "@/db/schema";
import { VerifyPage } from "./pages/verify-page";
import { e2eDatabaseUrl, expect, expectNoAxeViolations, signInAs, test } from "./support/fixtures";
import { createE2ePackage, signEverything, withE2eDb } from "./support/signing-data";
import { readObject } from "@/lib/storage/objects";

const SAM = "signer@demo.local";

/** Waits until the server's job worker has sealed the package (it polls every second). */
async function waitForSeal(packageId: string): Promise<void> {
  await expect
    .poll(async () => withE2eDb(async (db) => (await db.select({ s: packageSeals.status }).from(packageSeals).where(eq(packageSeals.packageId, packageId)))[0]?.s), {
      timeout: 30_000,
    })
    .toBe("sealed");
}

test.describe("sealed documents and /verify", () => {
  test.beforeEach(() => {
    test.skip(!e2eDatabaseUrl(), "needs the run's PostgreSQL database to create packages (PGlite is held by the server)");
  });

  test("the signer downloads the sealed copies from the done page; /verify recognises them, without JavaScript too, and spots a changed copy", async ({
    page,
    browser,
  }) => {
    const pkg = await createE2ePackage("Sealed boat loan", [{ email: SAM }]);
    await signEverything(SAM, pkg);
    await waitForSeal(pkg.id);

    await signInAs(page, SAM);
    await page.goto(`/signings/${pkg.id}/done`);
    const sealed = page.getByRole("region", { name: "Sealed documents" });
    await expect(sealed.getByRole("link", { name: "Download certificate" })).toBeVisible();
    await expectNoAxeViolations(page);

    const zipDownload = page.waitForEvent("download");
    await sealed.getByRole("link", { name: "Download all (ZIP)" }).click();
    expect((await zipDownload).suggestedFilename()).toBe(`${pkg.title} (sealed).zip`);
    const pdfDownload = page.waitForEvent("download");
    await sealed.getByRole("link", { name: "Download sealed PDF of Document 1.pdf" }).click();
    const download = await pdfDownload;
    expect(download.suggestedFilename()).toBe("Document 1 (sealed).pdf");
    const sealedPdf = new Uint8Array(await readFile((await download.path())!));

    // Signed out and without JavaScript: the form still posts and answers.
    const noScript = await browser.newContext({ javaScriptEnabled: false });
    const plain = await new VerifyPage(await noScript.newPage()).goto();
    await plain.checkFile("my copy.pdf", sealedPdf);
    await expect(plain.result.getByRole("heading", { name: "Sealed by us, unchanged" })).toBeVisible();
    await expect(plain.result).toContainText(`“${pkg.title}”`);
    await noScript.close();

    // With JavaScript, signed out: a changed copy and the unsealed original.
    const anonymous = await browser.newContext();
    const verify = await new VerifyPage(await anonymous.newPage()).goto();
    await expectNoAxeViolations(verify.page);
    const changed = Uint8Array.from(sealedPdf);
    changed[600] = changed[600]! ^ 0x01;
    await verify.checkFile("changed.pdf", changed);
    await expect(verify.result.getByRole("heading", { name: "Modified after sealing" })).toBeVisible();
    await expect(verify.result).not.toContainText(pkg.title);
    await expectNoAxeViolations(verify.page);

    const original = await withE2eDb(async (db) => {
      const [row] = await db.select({ storageKey: packageDocuments.storageKey }).from(packageDocuments).where(eq(packageDocuments.packageId, pkg.id));
      return readObject(db, row!.storageKey);
    });
    await verify.checkFile("original.pdf", original);
    await expect(verify.result.getByRole("heading", { name: "Not sealed by us" })).toBeVisible();
    await anonymous.close();
  });
});
