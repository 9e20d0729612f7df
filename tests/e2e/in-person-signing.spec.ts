import { randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { openDb, type DbHandle } from "@/db/client";
import { auditLog, eSignatures, locations } from "@/db/schema";
import { createSignerPackage } from "../helpers/signing-fixtures";
import { SignPanel } from "./pages/sign-panel";
import { e2eDatabaseUrl, expect, expectNoAxeViolations, signInAs, test } from "./support/fixtures";

// Signing at the desk on a tablet: the manager records the identification and hands the device over;
// the signer sees only their package, signs, and hands the device back, which asks for a sign-in.

let handle: DbHandle;

test.beforeEach(async () => {
  test.skip(!e2eDatabaseUrl(), "needs the run's PostgreSQL database to create a package (PGlite is held by the server)");
  handle = await openDb({ url: e2eDatabaseUrl() }, { max: 1 });
});

test.afterEach(async () => {
  await handle?.close();
});

test.use({ viewport: { width: 768, height: 1024 } });

test("a manager hosts a borrower at the desk: identification recorded, device handed over and back", { tag: "@desktop" }, async ({ page }) => {
  const [austin] = await handle.db.select().from(locations).where(eq(locations.name, "Austin Branch"));
  const email = `walkin-${randomBytes(3).toString("hex")}@example.test`;
  const pkg = await createSignerPackage(handle.db, { location: austin!, signers: [{ email }], title: `Desk closing ${randomBytes(3).toString("hex")}` });

  await signInAs(page, "manager@demo.local", { landsOn: `/signings/${pkg.id}` });
  await page.getByRole("link", { name: "Sign in person…" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Sign in person" })).toBeVisible();
  await expectNoAxeViolations(page);

  // Only the last four characters: anything else is refused in place, with what was typed kept.
  const form = page.getByRole("form", { name: "Identification checked" });
  await form.getByLabel("Kind of identification").selectOption("drivers_license");
  await form.getByLabel("Issued by").fill("Texas");
  await form.getByLabel("Last four characters of its number").evaluate((el: HTMLInputElement) => el.removeAttribute("pattern"));
  await form.getByLabel("Last four characters of its number").fill("48-1");
  await form.getByLabel(/I compared this identification/).check();
  await form.getByRole("button", { name: "Hand over the device" }).click();
  await expect(form.getByRole("status")).toContainText("last four");
  await expect(form.getByLabel("Issued by")).toHaveValue("Texas");

  await form.getByLabel("Last four characters of its number").fill("4821");
  await form.getByLabel(/I compared this identification/).check();
  await form.getByRole("button", { name: "Hand over the device" }).click();

  // The signer's package, with whose desk it is and the way back.
  await page.waitForURL(`**/signings/${pkg.id}`);
  const banner = page.getByRole("region", { name: "Signing in person" });
  await expect(banner).toContainText("You are signing in person with Max Manager");
  const panel = new SignPanel(page);
  await panel.consent();
  await panel.adoptTyped("Walk In Borrower", "Dancing Script");
  await panel.signButton("Document 1.pdf").click();
  await expect(panel.allSigned).toBeVisible();
  await expectNoAxeViolations(page);

  // The host is signed out on this device: the console is not reachable from the signer's session.
  const console = await page.context().newPage();
  await console.goto("/signings");
  await expect(console).toHaveURL(/\/sign-in/);
  await console.close();

  await page.goto(`/signings/${pkg.id}`);
  await page.getByRole("button", { name: "Hand the device back" }).click();
  await expect(page).toHaveURL(/\/sign-in\?signedOut=1/);
  await page.goto(`/signings/${pkg.id}`);
  await expect(page).toHaveURL(/\/sign-in/);

  const [signature] = await handle.db.select().from(eSignatures).where(eq(eSignatures.packageId, pkg.id));
  expect(signature).toBeDefined();
  const trail = await handle.db.select({ action: auditLog.action, after: auditLog.after }).from(auditLog).where(and(eq(auditLog.packageId, pkg.id)));
  expect(trail.find((e) => e.action === "signer.in_person_started")?.after).toMatchObject({
    host: { email: "manager@demo.local" },
    identification: { idType: "drivers_license", idIssuer: "Texas", idLastFour: "4821" },
  });
  expect(trail.some((e) => e.action === "signer.in_person_ended")).toBe(true);
});
