import { DEMO_PASSWORD } from "@/lib/seed/seed-demo";
import { DonePage, SigningPage } from "./pages/signing-page";
import { SignInPage } from "./pages/sign-in-page";
import { e2eDatabaseUrl, expect, expectNoAxeViolations, signInAs, test } from "./support/fixtures";
import { createE2ePackage, signEverything, updatePackage } from "./support/signing-data";

const SAM = "signer@demo.local";
const CASEY = "cosigner@demo.local";

// Each test makes its own package in the run's database, so the demo package stays for the signing journeys.
test.describe("the signer's package page", () => {
  test.beforeEach(() => {
    test.skip(!e2eDatabaseUrl(), "needs the run's PostgreSQL database to create packages (PGlite is held by the server)");
  });

  test("signed out, the invitation link goes through sign-in and comes back to the package", async ({ page }) => {
    const pkg = await createE2ePackage("Round trip", [{ email: SAM }]);
    await page.goto(`/signings/${pkg.id}`);
    expect(new URL(page.url()).searchParams.get("callbackUrl")).toBe(`/signings/${pkg.id}`);
    await new SignInPage(page).signIn(SAM, DEMO_PASSWORD, `/signings/${pkg.id}`);
    await expect(new SigningPage(page).title).toHaveText(/^Round trip/);
  });

  test("your turn: title, sender, steps with the current one, co-signers without contact details, the action in reach", async ({ page, isMobile }) => {
    const pkg = await createE2ePackage("Your turn", [{ email: SAM }, { email: CASEY, role: "co_signer" }]);
    await signInAs(page, SAM);
    const signing = await new SigningPage(page).goto(pkg.id);
    await expect(signing.title).toHaveText(/^Your turn/);
    await expect(page.getByText("From Demo Lending Co. · Austin Branch")).toBeVisible();
    await expect(signing.currentStep).toContainText("Review the documents");
    await expect(signing.steps.getByRole("listitem")).toHaveText([/Review the documents/, /Sign/, /Link your bank/, /Done/]);
    await expect(signing.signer("Sam Signer")).toContainText("(you)");
    await expect(signing.signer("Casey Cosigner")).toContainText("Co-signer");
    await expect(signing.signer("Casey Cosigner")).toContainText("Notified");
    await expect(page.getByText(CASEY)).toHaveCount(0);
    await expect(signing.signer("Sam Signer")).toContainText("Viewed");
    if (isMobile) {
      await expect(signing.bottomBar).toBeVisible();
      await expect(signing.bottomBar).toContainText("1 of 1 left");
      await expect(signing.bottomBar.getByRole("progressbar", { name: "Documents signed" })).toHaveAttribute("aria-valuetext", "0 of 1 signed");
      await expect(signing.bottomBar.getByRole("link", { name: "Start" })).toHaveAttribute("href", "#sign-panel");
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    } else {
      await expect(signing.bottomBar).toBeHidden();
      const panel = await page.getByRole("complementary", { name: "Your signing" }).boundingBox();
      expect(panel?.width).toBeGreaterThan(300);
      expect(panel?.width).toBeLessThan(340);
    }
    await expectNoAxeViolations(page);
  });

  test("waiting for an earlier signer: says who, keeps signing disabled with the reason, and opens up once they have signed", async ({ page }) => {
    const pkg = await createE2ePackage("Waiting", [{ email: CASEY, routingOrder: 1 }, { email: SAM, routingOrder: 2 }]);
    await signInAs(page, SAM);
    const signing = await new SigningPage(page).goto(pkg.id);
    await expect(signing.stateHeading).toHaveText("Waiting for Casey Cosigner to sign first");
    await expect(page.getByText("Casey Cosigner must sign before you can.")).toBeVisible();
    await expect(signing.signer("Sam Signer")).toContainText("Pending");
    await expectNoAxeViolations(page);

    await signEverything(CASEY, pkg);
    await page.evaluate(() => window.dispatchEvent(new Event("focus")));
    await expect(signing.stateHeading).toHaveCount(0);
    await expect(signing.signer("Casey Cosigner")).toContainText("Signed");
    await expect(signing.signer("Sam Signer")).toContainText("Viewed");
  });

  test("decline: a confirmation that says what it does, Escape keeps the package, then the declined screen", async ({ page }) => {
    const pkg = await createE2ePackage("Decline", [{ email: SAM }, { email: CASEY }]);
    await signInAs(page, SAM);
    const signing = await new SigningPage(page).goto(pkg.id);
    await signing.declineButton.click();
    await expect(signing.declineDialog).toBeVisible();
    await expect(signing.declineDialog).toContainText("This cannot be undone.");
    await expect(signing.declineDialog).toContainText("Demo Lending Co. will see that you declined, with your reason.");
    await expect(signing.declineDialog).toContainText("Casey Cosigner will not be able to sign it either.");
    await expect(signing.declineReason).toBeFocused();
    await expectNoAxeViolations(page);
    await page.keyboard.press("Escape");
    await expect(signing.declineDialog).toBeHidden();
    await expect(signing.declineButton).toBeFocused();

    await signing.declineButton.click();
    await signing.declineReason.fill("The loan amount is wrong.");
    await signing.confirmDecline.click();
    await expect(signing.stateHeading).toHaveText("You declined this package");
    await expect(page.getByText("Your reason: The loan amount is wrong.")).toBeVisible();
    await expect(signing.declineButton).toHaveCount(0);
    await expectNoAxeViolations(page);
  });

  test("declined by a co-signer, cancelled by the sender, expired: each its own screen", async ({ page }) => {
    const declined = await createE2ePackage("Declined", [{ email: SAM }, { email: CASEY }]);
    const cancelled = await createE2ePackage("Cancelled", [{ email: SAM }]);
    const expired = await createE2ePackage("Expired", [{ email: SAM }]);
    await updatePackage(cancelled.id, { status: "cancelled", cancelledAt: new Date(), cancelReason: "We sent you a corrected package." });
    await updatePackage(expired.id, { expiresAt: new Date(Date.now() - 60_000) });
    await signInAs(page, CASEY);
    const asCasey = await new SigningPage(page).goto(declined.id);
    await asCasey.declineButton.click();
    await asCasey.declineReason.fill("Not my loan.");
    await asCasey.confirmDecline.click();
    await expect(asCasey.stateHeading).toHaveText("You declined this package");

    await page.context().clearCookies();
    await signInAs(page, SAM);
    const signing = await new SigningPage(page).goto(declined.id);
    await expect(signing.stateHeading).toHaveText("Casey Cosigner declined this package");
    await expectNoAxeViolations(page);
    await signing.goto(cancelled.id);
    await expect(signing.stateHeading).toHaveText("Demo Lending Co. cancelled this package");
    await expect(page.getByText("Their reason: We sent you a corrected package.")).toBeVisible();
    await expectNoAxeViolations(page);
    await signing.goto(expired.id);
    await expect(signing.stateHeading).toHaveText("This package has expired");
    await expect(page.getByText(/Contact Demo Lending Co\. \(Austin Branch\)/)).toBeVisible();
    await expectNoAxeViolations(page);
  });

  test("not yours: the not-found page", async ({ page }) => {
    const pkg = await createE2ePackage("Not yours", [{ email: CASEY }]);
    await signInAs(page, SAM);
    const response = await page.goto(`/signings/${pkg.id}`);
    expect(response?.status()).toBe(404);
    await expect(page.getByText("Not yours")).toHaveCount(0);
    await expectNoAxeViolations(page);
  });

  test("the emailed link opened by one of the package's managers shows them the manager's view, not a 404", async ({ page }) => {
    const pkg = await createE2ePackage("Managed link", [{ email: CASEY }]);
    await signInAs(page, "manager@demo.local");
    const response = await page.goto(`/signings/${pkg.id}`);
    expect(response?.status()).toBe(200);
    expect(new URL(page.url()).pathname).toBe(`/signings/${pkg.id}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(pkg.title);
    await expect(page.getByTestId("status-sentence")).toHaveText(/^Waiting for Casey Cosigner — sent /);
    await expect(page.getByRole("button", { name: "Decline to sign" })).toHaveCount(0);
  });

  test("signed everything: the bank step is next, and the done page's status line updates by itself", async ({ page }) => {
    const pkg = await createE2ePackage("Done", [{ email: SAM }, { email: CASEY }]);
    await signEverything(SAM, pkg);
    await signInAs(page, SAM);
    const signing = await new SigningPage(page).goto(pkg.id);
    await expect(signing.stateHeading).toHaveText("You’ve signed every document. Next: link your bank");
    await expect(page.getByRole("link", { name: "Continue to bank" }).filter({ visible: true })).toHaveAttribute("href", `/signings/${pkg.id}/bank`);
    await expect(signing.currentStep).toContainText("Link your bank");
    await expectNoAxeViolations(page);

    await page.goto(`/signings/${pkg.id}/done`);
    const done = new DonePage(page);
    await expect(done.heading).toBeVisible();
    await expect(done.status).toHaveText("Waiting for Casey Cosigner.");
    await expect(done.signed.getByRole("listitem")).toHaveCount(1);
    await expect(done.signed.getByText(/^Signed .* UTC$/)).toBeVisible();
    await expect(done.signed.getByRole("link", { name: "Download Document 1.pdf" })).toHaveAttribute("href", `/signings/${pkg.id}/documents/${pkg.documents[0]!.id}/file?download=1`);
    await expect(page.getByRole("link", { name: "link your bank" })).toBeVisible();
    await expectNoAxeViolations(page);

    await signEverything(CASEY, pkg);
    await page.evaluate(() => window.dispatchEvent(new Event("focus")));
    await expect(done.status).toHaveText("Everyone has signed.");
  });

  test("home links each package with what it waits for, and My signatures lists what was signed", async ({ page }) => {
    const mine = await createE2ePackage("Home link", [{ email: SAM }]);
    const later = await createE2ePackage("Home later", [{ email: CASEY, routingOrder: 1 }, { email: SAM, routingOrder: 2 }]);
    const signed = await createE2ePackage("Home signed", [{ email: SAM }, { email: CASEY }]);
    await signEverything(SAM, signed);
    const home = await signInAs(page, SAM);
    const phone = page.viewportSize()!.width < 640;
    const list = phone ? home.assignedList : home.assignedTable;
    const entry = (title: string) => list.getByRole(phone ? "listitem" : "row").filter({ has: page.getByRole("link", { name: title, exact: true }) });
    await expect(entry(mine.title)).toContainText("Waiting for your signature");
    await expect(entry(later.title)).toContainText("Waiting for an earlier signer");
    await expect(entry(signed.title)).toContainText("You signed · waiting for others");
    await expect(list.getByRole("link", { name: later.title, exact: true })).toHaveAttribute("href", `/signings/${later.id}`);
    await expectNoAxeViolations(page);
    await list.getByRole("link", { name: mine.title, exact: true }).click();
    await expect(new SigningPage(page).title).toHaveText(/^Home link/);
    expect(new URL(page.url()).pathname).toBe(`/signings/${mine.id}`);

    await page.goto("/me/esignatures");
    await expect(page.getByRole("heading", { level: 1, name: "My signatures" })).toBeVisible();
    const record = page.getByRole("list", { name: "Your e-signatures" }).getByRole("listitem").filter({ hasText: signed.title });
    await expect(record).toContainText("Document 1.pdf");
    await expect(record).toContainText("Typed: Sam Signer");
    await expect(record).toContainText(signed.documents[0]!.sha256);
    await expectNoAxeViolations(page);
  });
});
