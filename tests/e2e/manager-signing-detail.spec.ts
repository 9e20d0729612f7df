import { and, count, eq } from "drizzle-orm";
import { auditLog, signingPackages } from "@/db/schema";
import { ManagerSigningPage } from "./pages/manager-signing-page";
import { SignPanel } from "./pages/sign-panel";
import { e2eDatabaseUrl, expect, expectNoAxeViolations, signInAs, test } from "./support/fixtures";
import { createE2ePackage, signEverything, withE2eDb } from "./support/signing-data";

// The manager's package page (`/signings/<id>` for a manager who is not a signer of it): the status
// sentence, the signers updating live while a signer signs in another browser, the verified audit
// trail, reminding and cancelling (twice), a draft's actions, and a manager who also signs.
// Each test makes its own packages (unique titles) in the run's database.

const MANAGER = "manager@demo.local";
const OWNER = "owner@demo.local";
const SAM = "signer@demo.local";
const CASEY = "cosigner@demo.local";

const auditCount = (packageId: string) =>
  withE2eDb(async (db) => (await db.select({ n: count() }).from(auditLog).where(eq(auditLog.packageId, packageId)))[0]!.n);

test.describe("the manager's package page", () => {
  test.beforeEach(() => {
    test.skip(!e2eDatabaseUrl(), "needs the run's PostgreSQL database to create packages (PGlite is held by the server)");
  });

  test("follows a signer live, reads the verified audit trail and reminds the next signer", { tag: "@desktop" }, async ({ page, browser }) => {
    const pkg = await createE2ePackage("Detail journey", [{ email: SAM }, { email: CASEY, role: "co_signer", routingOrder: 2 }]);
    await signInAs(page, MANAGER, { landsOn: `/signings/${pkg.id}` });
    const detail = new ManagerSigningPage(page);
    await expect(detail.title).toHaveText(pkg.title);
    await expect(detail.statusSentence).toHaveText(/^Waiting for Sam Signer — sent (just now|\d+ seconds? ago)\.$/);
    await expect(page.getByText("Demo Lending Co. · Demo Homes Finance · Austin Branch")).toBeVisible();
    await expect(detail.signer("Sam Signer")).toContainText("Notified");
    await expect(detail.signer("Sam Signer")).toContainText("Order 1");
    await expect(detail.signer("Casey Cosigner")).toContainText("Pending");
    await expect(detail.signer("Casey Cosigner")).toContainText("not emailed yet");
    await expect(detail.auditVerdict).toHaveText(`✓ Verified: ${await auditCount(pkg.id)} entries, unbroken.`);
    await expect(detail.documents.getByText("Document 1.pdf").first()).toBeVisible();
    await expect(page.getByRole("button", { name: "Cancel package…" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Edit draft" })).toHaveCount(0);
    await expectNoAxeViolations(page);

    // Sam signs in another browser; the manager's page follows without a reload.
    await page.evaluate(() => ((window as unknown as { stayedHere: boolean }).stayedHere = true));
    const samContext = await browser.newContext();
    try {
      const samPage = await samContext.newPage();
      await signInAs(samPage, SAM, { landsOn: `/signings/${pkg.id}` });
      const panel = new SignPanel(samPage);
      await panel.consent();
      await panel.adoptTyped("Sam Signer", "Great Vibes");
      await panel.signButton("Document 1.pdf").click();
      await expect(panel.allSigned).toBeVisible();
    } finally {
      await samContext.close();
    }
    await expect(detail.statusSentence).toHaveText(/^Waiting for Casey Cosigner — sent /, { timeout: 20_000 });
    await expect(detail.signer("Sam Signer")).toContainText("Signed");
    await expect(detail.signer("Sam Signer")).toContainText("Opened");
    await expect(detail.signer("Casey Cosigner")).toContainText("Notified");
    expect(await page.evaluate(() => (window as unknown as { stayedHere?: boolean }).stayedHere)).toBe(true);

    // The trail names who did what, from where and with which browser.
    const signedRow = detail.auditTable.getByRole("row").filter({ hasText: "Document signed" });
    await expect(signedRow).toHaveCount(1);
    await expect(signedRow).toContainText("Sam Signer");
    await expect(signedRow).toContainText(/127\.0\.0\.1|::1/);
    await expect(signedRow).toContainText(/Chrome \d+/);
    await expect(detail.auditVerdict).toHaveText(`✓ Verified: ${await auditCount(pkg.id)} entries, unbroken.`);
    await expect(detail.vaultDeliveries.getByRole("row").filter({ hasText: "Sam Signer · Document 1.pdf" })).toHaveCount(1);

    await detail.remindButton("Casey Cosigner").click();
    await expect(detail.message("Reminder sent to Casey Cosigner.")).toBeVisible();
    await expect(detail.signer("Casey Cosigner")).toContainText("Last reminder");
    const reminders = await withE2eDb((db) =>
      db.select().from(auditLog).where(and(eq(auditLog.packageId, pkg.id), eq(auditLog.action, "signer.reminded"))),
    );
    expect(reminders).toHaveLength(1);
    await detail.remindButton("Casey Cosigner").click();
    await expect(detail.message("Casey Cosigner was already reminded in the last hour, so no second email was sent.")).toBeVisible();
    await expectNoAxeViolations(page);

    // Usable at 768 px: nothing wider than the window, the actions still there.
    await page.setViewportSize({ width: 768, height: 1000 });
    await expect(detail.remindButton("Casey Cosigner")).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(768);
    await expectNoAxeViolations(page);
  });

  test("cancels with a reason; a second cancel from a stale tab says 'already cancelled'", { tag: "@desktop" }, async ({ page, context }) => {
    const pkg = await createE2ePackage("Detail cancel", [{ email: SAM }]);
    await signInAs(page, MANAGER, { landsOn: `/signings/${pkg.id}` });
    const first = new ManagerSigningPage(page);
    const stale = await new ManagerSigningPage(await context.newPage()).goto(pkg.id);
    // The stale tab's dialog is open before the package is cancelled: live updates must not close it.
    await stale.cancelButton.click();
    await expect(stale.cancelDialog).toBeVisible();
    await stale.cancelReason.fill("Typed in the other tab");

    await first.cancelButton.click();
    await expect(first.cancelDialog).toBeVisible();
    await expectNoAxeViolations(page);
    await first.cancelReason.fill("Wrong loan amount");
    await first.confirmCancel.click();
    await expect(first.message("Package cancelled. Signers who were still to sign have been told by email.")).toBeVisible();
    await expect(first.cancelDialog).toBeHidden();
    await expect(first.statusSentence).toHaveText(/^Cancelled (just now|\d+ seconds? ago) — reason: “Wrong loan amount”\.$/);
    await expect(first.cancelButton).toHaveCount(0);
    await expect(page.getByText("This package is finished; there is nothing more to do with it.")).toBeVisible();

    // Longer than one live-update interval: the open dialog and what was typed stay.
    await stale.page.waitForTimeout(6_000);
    await expect(stale.cancelDialog).toBeVisible();
    await expect(stale.cancelReason).toHaveValue("Typed in the other tab");
    await stale.confirmCancel.click();
    await expect(stale.message("The signing package is already cancelled.")).toBeVisible();
    await expect(stale.cancelDialog).toBeHidden();
    await expect(stale.statusSentence).toHaveText(/^Cancelled .* — reason: “Wrong loan amount”\.$/);
    // The refresh after the action re-renders the page's metadata; axe looks once the title is back.
    await expect(stale.page).toHaveTitle(/ · Package · Closing & Signing$/);
    await expectNoAxeViolations(stale.page);

    const [row] = await withE2eDb((db) => db.select().from(signingPackages).where(eq(signingPackages.id, pkg.id)));
    expect(row).toMatchObject({ status: "cancelled", cancelReason: "Wrong loan amount" });
  });

  test("a draft offers edit, send and delete; deleting it leaves the package list", { tag: "@desktop" }, async ({ page }) => {
    const draft = await createE2ePackage("Detail draft", [{ email: SAM }], "draft");
    await signInAs(page, MANAGER, { landsOn: `/signings/${draft.id}` });
    const detail = new ManagerSigningPage(page);
    await expect(detail.statusSentence).toHaveText(/^Draft — not sent yet\./);
    await expect(page.getByRole("link", { name: "Edit draft" })).toHaveAttribute("href", `/signings/${draft.id}/edit`);
    await expect(page.getByRole("button", { name: "Send…" })).toBeVisible();
    await expect(detail.remindButton("Sam Signer")).toHaveCount(0);
    await page.getByRole("button", { name: "Delete draft…" }).click();
    const dialog = page.getByRole("dialog", { name: "Delete this draft?" });
    await expect(dialog).toContainText(draft.title);
    await expectNoAxeViolations(page);
    await dialog.getByRole("button", { name: "Delete the draft" }).click();
    await page.waitForURL((url) => url.pathname === "/signings");
    const rows = await withE2eDb((db) => db.select().from(signingPackages).where(eq(signingPackages.id, draft.id)));
    expect(rows).toEqual([]);
  });

  test("a manager who also signs gets the signing page with a link to manage it", { tag: "@desktop" }, async ({ page }) => {
    const pkg = await createE2ePackage("Detail both", [{ email: OWNER }]);
    await signInAs(page, OWNER, { landsOn: `/signings/${pkg.id}` });
    await expect(new SignPanel(page).agree).toBeVisible();
    await page.getByRole("link", { name: "Manage this package" }).click();
    const detail = new ManagerSigningPage(page);
    await expect(detail.statusSentence).toHaveText(/^Waiting for Olive Owner — sent /);
    expect(new URL(page.url()).searchParams.get("view")).toBe("manage");
    await expect(page.getByRole("link", { name: "Your signing page" })).toHaveAttribute("href", `/signings/${pkg.id}`);
    await expectNoAxeViolations(page);

    // Once they have signed, the done page keeps the way to the manager's view.
    await signEverything(OWNER, pkg);
    await page.goto(`/signings/${pkg.id}/done`);
    await expect(page.getByRole("heading", { level: 1, name: "You’ve signed" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Manage this package" })).toHaveAttribute("href", `/signings/${pkg.id}?view=manage`);
  });
});
