import { randomBytes } from "node:crypto";
import type { Page, TestInfo } from "@playwright/test";
import { and, eq } from "drizzle-orm";
import { openDb, type DbHandle } from "@/db/client";
import { auditLog, eSignatures, flows, locations, signingPackages } from "@/db/schema";
import { localSubjectForEmail } from "@/lib/auth/local-tokens";
import { resolvePrincipal } from "@/lib/auth/principal";
import { issueInPersonUrl } from "@/lib/in-person/in-person-url";
import { createSignerPackage } from "../helpers/signing-fixtures";
import { SignPanel } from "./pages/sign-panel";
import { e2eDatabaseUrl, expect, expectNoAxeViolations, signInAs, test } from "./support/fixtures";

// Signing at the desk: the manager records the identification and hands the device over; the signer
// sees only their package, signs, and hands the device back, which asks for a sign-in. The device may
// be a desktop (1280 px), a tablet (768 px) or a phone (390 px, the phone project): each test runs on
// the desktop and phone projects, and again at 768 px on the desktop one.

let handle: DbHandle;

test.beforeEach(async () => {
  test.skip(!e2eDatabaseUrl(), "needs the run's PostgreSQL database to create a package (PGlite is held by the server)");
  handle = await openDb({ url: e2eDatabaseUrl() }, { max: 1 });
});

test.afterEach(async () => {
  await handle?.close();
});

/** A sent package of the demo organization for a new walk-in signer; `withoutBank` gives it a flow that ends on the done page. */
async function deskPackage(options: { withoutBank?: boolean } = {}) {
  const [austin] = await handle.db.select().from(locations).where(eq(locations.name, "Austin Branch"));
  const email = `walkin-${randomBytes(3).toString("hex")}@example.test`;
  const pkg = await createSignerPackage(handle.db, { location: austin!, signers: [{ email }], title: `Desk closing ${randomBytes(3).toString("hex")}` });
  if (options.withoutBank) {
    // The demo organization's default flow has a bank step; this package follows one without.
    const [flow] = await handle.db
      .insert(flows)
      .values({ organizationId: austin!.organizationId, name: `Desk, no bank ${randomBytes(3).toString("hex")}`, steps: ["review", "sign", "done"] })
      .returning();
    await handle.db.update(signingPackages).set({ flowId: flow!.id }).where(eq(signingPackages.id, pkg.id));
  }
  return pkg;
}

/** The host's side: the package page, "Sign in person…", the identification, "Hand over the device". */
async function handOver(page: Page, packageId: string, options: { checkRefusal?: boolean } = {}) {
  await signInAs(page, "manager@demo.local", { landsOn: `/signings/${packageId}` });
  await page.getByRole("link", { name: "Sign in person…" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Sign in person" })).toBeVisible();
  await expectNoAxeViolations(page);

  const form = page.getByRole("form", { name: "Identification checked" });
  await form.getByLabel("Kind of identification").selectOption("drivers_license");
  await form.getByLabel("Issued by").fill("Texas");
  if (options.checkRefusal) {
    // Only the last four characters: anything else is refused in place, with what was typed kept.
    await form.getByLabel("Last four characters of its number").evaluate((el: HTMLInputElement) => el.removeAttribute("pattern"));
    await form.getByLabel("Last four characters of its number").fill("48-1");
    await form.getByLabel(/I compared this identification/).check();
    await form.getByRole("button", { name: "Hand over the device" }).click();
    await expect(form.getByRole("status")).toContainText("last four");
    await expect(form.getByLabel("Issued by")).toHaveValue("Texas");
  }
  await form.getByLabel("Last four characters of its number").fill("4821");
  await form.getByLabel(/I compared this identification/).check();
  await form.getByRole("button", { name: "Hand over the device" }).click();

  // The signer's package, with whose desk it is and the way back.
  await page.waitForURL(`**/signings/${packageId}`);
  await expect(page.getByRole("region", { name: "Signing in person" })).toContainText("You are signing in person with Max Manager");
}

/** The signer consents, adopts a typed signature and signs the one document. */
async function signAll(page: Page) {
  const panel = new SignPanel(page);
  await panel.consent();
  await panel.adoptTyped("Walk In Borrower", "Dancing Script");
  await panel.signButton("Document 1.pdf").click();
  await expect(panel.allSigned).toBeVisible();
}

/** The trail of the package: the hosted start with the host and the identification, and the hand-back. */
async function expectHostedTrail(packageId: string) {
  const [signature] = await handle.db.select().from(eSignatures).where(eq(eSignatures.packageId, packageId));
  expect(signature).toBeDefined();
  const trail = await handle.db.select({ action: auditLog.action, after: auditLog.after }).from(auditLog).where(and(eq(auditLog.packageId, packageId)));
  expect(trail.find((e) => e.action === "signer.in_person_started")?.after).toMatchObject({
    host: { email: "manager@demo.local" },
    identification: { idType: "drivers_license", idIssuer: "Texas", idLastFour: "4821" },
  });
  expect(trail.filter((e) => e.action === "signer.in_person_ended")).toHaveLength(1);
}

/** The host, signed in again, reads the package's trail: the desk entries in words, with who hosted and what was checked. */
async function expectTrailInWords(page: Page, packageId: string, options: { viaApi?: boolean } = {}) {
  await signInAs(page, "manager@demo.local", { landsOn: `/signings/${packageId}` });
  const rows = page.getByRole("region", { name: "Audit trail entries" }).getByRole("row");
  const hosted = "Hosted by Max Manager (manager@demo.local); identification checked: Driver's license, Texas, ending 4821";
  await expect(rows.filter({ hasText: "Signing in person started" })).toContainText(options.viaApi ? `${hosted} (started through the API)` : hosted);
  await expect(rows.filter({ hasText: "Device handed back to the host" })).toContainText("Hosted by Max Manager (manager@demo.local)");
  await expect(rows.filter({ hasText: "Signer proved who they are" })).toContainText("By In person (identification checked by the host)");
  if (options.viaApi) await expect(rows.filter({ hasText: "In-person signing URL issued" })).toContainText(hosted);
  await expectNoAxeViolations(page);
}

async function handBack(page: Page, packageId: string) {
  await page.getByRole("region", { name: "Signing in person" }).getByRole("button", { name: "Hand the device back" }).click();
  await expect(page).toHaveURL(/\/sign-in\?signedOut=1/);
  await page.goto(`/signings/${packageId}`);
  await expect(page).toHaveURL(/\/sign-in/);
}

async function handedOverAndBack(page: Page) {
  const pkg = await deskPackage();
  await handOver(page, pkg.id, { checkRefusal: true });
  await signAll(page);
  await expectNoAxeViolations(page);

  // The host is signed out on this device: the console is not reachable from the signer's session.
  const console = await page.context().newPage();
  await console.goto("/signings");
  await expect(console).toHaveURL(/\/sign-in/);
  await console.close();

  // The flow goes on to the bank step: the way back is there too.
  await page.goto(`/signings/${pkg.id}/bank`);
  await expect(page.getByRole("heading", { level: 1, name: "Link your bank" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Signing in person" })).toContainText("Max Manager");
  await expectNoAxeViolations(page);

  await page.goto(`/signings/${pkg.id}`);
  await handBack(page, pkg.id);
  await expectHostedTrail(pkg.id);
}

async function endsOnDoneAndHandsBack(page: Page, testInfo: TestInfo) {
  const pkg = await deskPackage({ withoutBank: true });
  await handOver(page, pkg.id);
  await signAll(page);

  // No bank step: the flow ends on the done page, which carries the banner and the way back.
  await page.waitForURL(`**/signings/${pkg.id}/done`);
  await expect(page.getByRole("heading", { level: 1, name: "You’ve signed" })).toBeVisible();
  const banner = page.getByRole("region", { name: "Signing in person" });
  await expect(banner).toContainText("You are signing in person with Max Manager");
  await expectNoAxeViolations(page);
  await page.screenshot({ path: testInfo.outputPath(`done-in-person-${page.viewportSize()?.width}.png`), fullPage: true });

  await handBack(page, pkg.id);
  await page.goto(`/signings/${pkg.id}/done`);
  await expect(page).toHaveURL(/\/sign-in/);
  await expectHostedTrail(pkg.id);
  await expectTrailInWords(page, pkg.id);
}

async function openedFromTheDeskApp(page: Page) {
  const pkg = await deskPackage({ withoutBank: true });
  // What POST /v1/…/in-person-url does for the desk app's API key (tests/http covers the operation itself).
  const manager = await resolvePrincipal(handle.db, localSubjectForEmail("manager@demo.local"));
  const { token } = await issueInPersonUrl(handle.db, {
    principal: manager,
    packageId: pkg.id,
    signerId: pkg.signers[0]!.id,
    identification: { idType: "drivers_license", idIssuer: "Texas", idLastFour: "4821" },
  });

  // A link preview or a scanner fetching the URL (not a browser opening the page) does not spend it.
  const preview = await page.request.get(`/in-person/${token}`, { maxRedirects: 0 });
  expect([preview.status(), preview.headers().location]).toEqual([303, "/in-person/refused?reason=browser"]);

  await page.goto(`/in-person/${token}`);
  await page.waitForURL(`**/signings/${pkg.id}`);
  await expect(page.getByRole("region", { name: "Signing in person" })).toContainText("You are signing in person with Max Manager");
  await signAll(page);
  await page.waitForURL(`**/signings/${pkg.id}/done`);
  await handBack(page, pkg.id);
  await expectHostedTrail(pkg.id);

  // The URL opened once.
  await page.goto(`/in-person/${token}`);
  await expect(page).toHaveURL(/\/in-person\/refused\?reason=used/);
  await expect(page.getByRole("heading", { level: 1, name: "Signing in person cannot start" })).toBeVisible();
  await expect(page.getByText("already been used")).toBeVisible();
  await expectNoAxeViolations(page);
  await expectTrailInWords(page, pkg.id, { viaApi: true });
}

const HANDED_OVER = "a manager hosts a borrower at the desk: identification recorded, device handed over, signed, handed back";
const ENDS_ON_DONE = "a desk signing whose flow has no bank step ends on the done page, and the device is handed back from there";

test(HANDED_OVER, async ({ page }) => handedOverAndBack(page));
test(ENDS_ON_DONE, async ({ page }, testInfo) => endsOnDoneAndHandsBack(page, testInfo));

test("a desk app's in-person URL, opened on the device, starts the same session; it opens once", async ({ page }) => openedFromTheDeskApp(page));

test.describe("on a tablet (768 px)", { tag: "@desktop" }, () => {
  test.use({ viewport: { width: 768, height: 1024 } });
  test(HANDED_OVER, async ({ page }) => handedOverAndBack(page));
  test(ENDS_ON_DONE, async ({ page }, testInfo) => endsOnDoneAndHandsBack(page, testInfo));
});
