import { execFile } from "node:child_process";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { eq } from "drizzle-orm";
import { memberships, organizations, packageDocuments, packageSeals, users } from "@/db/schema";
import { localSubjectForEmail } from "@/lib/auth/local-tokens";
import { hashPassword } from "@/lib/auth/passwords";
import { resolvePrincipal } from "@/lib/auth/principal";
import { DEMO_PASSWORD } from "@/lib/seed/seed-demo";
import { sendSigning } from "@/lib/signings/send-signing";
import { VerifyPage } from "./pages/verify-page";
import { e2eDatabaseUrl, expect, expectNoAxeViolations, signInAs, test } from "./support/fixtures";
import { createE2ePackage, signEverything, withE2eDb } from "./support/signing-data";

const run = promisify(execFile);
const SAM = "signer@demo.local";
const OWNER = "owner@demo.local";

async function waitForSeal(packageId: string): Promise<void> {
  await expect
    .poll(async () => withE2eDb(async (db) => (await db.select({ s: packageSeals.status }).from(packageSeals).where(eq(packageSeals.packageId, packageId)))[0]?.s), {
      timeout: 30_000,
    })
    .toBe("sealed");
}

/** An organization admin of "Other Mortgage LLC" (the investor), with the demo password. */
async function createInvestorAdmin(): Promise<{ email: string; organizationId: number }> {
  const email = `evault-${Date.now().toString(36)}@other.local`;
  return withE2eDb(async (db) => {
    const [other] = await db.select().from(organizations).where(eq(organizations.slug, "other"));
    const [user] = await db
      .insert(users)
      .values({ email, name: "Ivy Investor", authProvider: "local", authSubject: localSubjectForEmail(email), passwordHash: await hashPassword(DEMO_PASSWORD) })
      .returning();
    await db.insert(memberships).values({ userId: user!.id, role: "org_admin", organizationId: other!.id });
    return { email, organizationId: other!.id };
  });
}

async function pdftotextPages(bytes: Uint8Array): Promise<string[]> {
  const file = join(await mkdtemp(join(tmpdir(), "evault-e2e-")), "copy.pdf");
  await writeFile(file, bytes);
  const { stdout } = await run("pdftotext", ["-layout", file, "-"]);
  return stdout.split("\f").filter((page, i, all) => i < all.length - 1 || page.trim() !== "");
}

test.describe("transferable records (eVault)", () => {
  test.beforeEach(() => {
    test.skip(!e2eDatabaseUrl(), "needs the run's PostgreSQL database to create packages (PGlite is held by the server)");
  });

  test("a contract marked transferable is sealed as the authoritative copy; the borrower's download is a COPY; control moves to the investor who accepts; /verify shows it", async ({
    page,
    browser,
  }) => {
    const pkg = await createE2ePackage("Manufactured home RIC", [{ email: SAM }], "draft");
    const investor = await createInvestorAdmin();

    // The lender's admin marks the contract transferable in the package form.
    await signInAs(page, OWNER);
    await page.goto(`/signings/${pkg.id}/edit`);
    await page.getByRole("checkbox", { name: "Transferable record Document 1.pdf" }).check();
    await page.getByRole("button", { name: "Save draft" }).click();
    await expect(page).toHaveURL(/saved=1/);
    await expect(page.getByRole("checkbox", { name: "Transferable record Document 1.pdf" })).toBeChecked();
    expect(await withE2eDb(async (db) => (await db.select({ t: packageDocuments.transferable }).from(packageDocuments).where(eq(packageDocuments.id, pkg.documents[0]!.id)))[0]?.t)).toBe(true);

    await withE2eDb(async (db) => sendSigning(db, { principal: await resolvePrincipal(db, localSubjectForEmail(OWNER)), packageId: pkg.id }));
    await signEverything(SAM, pkg);
    await waitForSeal(pkg.id);

    // The borrower's copy carries COPY, and where the authoritative copy is held, on every page.
    const borrower = await browser.newContext();
    const borrowerPage = await borrower.newPage();
    await signInAs(borrowerPage, SAM);
    await borrowerPage.goto(`/signings/${pkg.id}/done`);
    const downloadEvent = borrowerPage.waitForEvent("download");
    await borrowerPage.getByRole("region", { name: "Sealed documents" }).getByRole("link", { name: "Download sealed PDF of Document 1.pdf" }).click();
    const download = await downloadEvent;
    expect(download.suggestedFilename()).toBe("Document 1 (copy).pdf");
    const copy = new Uint8Array(await readFile((await download.path())!));
    const pages = await pdftotextPages(copy);
    expect(pages.length).toBeGreaterThan(1);
    for (const text of pages) {
      expect(text).toContain("COPY");
      expect(text.replace(/\s+/g, " ")).toContain("held in the eVault of Demo Lending Co.");
    }
    await borrower.close();

    // The lender offers control to the investor from the eVault page.
    await page.goto("/vault");
    await expect(page.getByRole("heading", { level: 1, name: "eVault" })).toBeVisible();
    await expectNoAxeViolations(page);
    const mine = page.getByRole("region", { name: "Records you control" }).getByTestId("vault-record").filter({ hasText: pkg.title });
    await expect(mine).toContainText("Controlled by Demo Lending Co.");
    // The assignee is named by its public identifier (its slug), which its admins read on their own eVault page.
    await mine.getByLabel("Organization identifier").fill("other");
    await mine.getByLabel("Note (optional)").fill("Sold in pool 7");
    await mine.getByRole("button", { name: "Offer transfer (Document 1.pdf)" }).click();
    await expect(mine).toContainText("Transfer offered to Other Mortgage LLC");
    await expect(mine).toContainText("offered to Other Mortgage LLC");

    // The investor's admin accepts.
    const investorContext = await browser.newContext();
    const investorPage = await investorContext.newPage();
    await signInAs(investorPage, investor.email);
    await investorPage.goto("/vault");
    await expect(investorPage.getByTestId("vault-organization-ids")).toContainText("other (Other Mortgage LLC)");
    const offered = investorPage.getByRole("region", { name: "Offered to you" }).getByTestId("vault-record").filter({ hasText: pkg.title });
    await expect(offered).toBeVisible();
    await expectNoAxeViolations(investorPage);
    await offered.getByRole("button", { name: "Accept control (Document 1.pdf)" }).click();
    await expect(investorPage.getByRole("region", { name: "Records you control" }).getByTestId("vault-record").filter({ hasText: pkg.title })).toContainText(
      "Controlled by Other Mortgage LLC",
    );
    await investorContext.close();

    // The lender no longer lists it.
    await page.reload();
    await expect(page.getByTestId("vault-record").filter({ hasText: pkg.title })).toHaveCount(0);

    // Anyone holding the copy sees the new controller at /verify.
    const anonymous = await browser.newContext();
    const verify = await new VerifyPage(await anonymous.newPage()).goto();
    await verify.checkFile("contract copy.pdf", copy);
    await expect(verify.result.getByRole("heading", { name: "A copy of a transferable record" })).toBeVisible();
    await expect(verify.result.getByTestId("verify-record-controller")).toHaveText("Other Mortgage LLC");
    await expect(verify.result).toContainText("Transfer accepted");
    await expectNoAxeViolations(verify.page);
    await anonymous.close();
  });
});
