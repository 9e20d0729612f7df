import { eq } from "drizzle-orm";
import { locations } from "@/db/schema";
import { renderAgreementPdf } from "@/lib/pdf/pdf";
import { createSignerPackage } from "../helpers/signing-fixtures";
import { FlowPages } from "./pages/flow-pages";
import { PlacesPage } from "./pages/places-page";
import { TemplatePages } from "./pages/template-pages";
import { e2eDatabaseUrl, expect, expectNoAxeViolations, signInAs, test } from "./support/fixtures";
import { withE2eDb } from "./support/signing-data";

// The manager's console for places, templates and flows (docs/manager-console.md). Everything made
// here has a unique name; companies, locations, the package, templates and flows are made by the
// other organization's manager, so the Demo Lending lists other files read do not change.

const OTHER_MANAGER = "manager@other.local";
const OTHER_ORG = "Other Mortgage LLC";

const unique = () => Date.now().toString(36);

test.describe("places", { tag: "@desktop" }, () => {
  test("an org admin creates, renames and deletes an organization; a manager is not offered it", async ({ page }) => {
    const name = `E2E Org ${unique()}`;
    await signInAs(page, "owner@demo.local");
    const places = await new PlacesPage(page).goto();
    await expectNoAxeViolations(page);

    const create = places.section("New organization");
    await create.getByLabel("Slug (optional)").fill("Not A Slug");
    await create.getByLabel("Organization name").fill(name);
    await create.getByRole("button", { name: "Create organization" }).click();
    await expect(create.getByLabel("Slug (optional)")).toHaveAttribute("aria-invalid", "true");
    await expect(create.getByLabel("Slug (optional)")).toHaveAccessibleDescription(/expected lower-case letters, digits and dashes/);
    await expect(create.getByLabel("Organization name")).toHaveValue(name);
    await expectNoAxeViolations(page);

    await create.getByLabel("Slug (optional)").fill("");
    await create.getByRole("button", { name: "Create organization" }).click();
    await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
    await expectNoAxeViolations(page);

    const settings = places.section("Organization settings");
    await settings.getByLabel("Organization name").fill(`${name} renamed`);
    await settings.getByRole("button", { name: "Save name" }).click();
    await expect(settings.getByRole("status")).toHaveText("Organization saved.");
    await expect(page.getByRole("heading", { level: 1, name: `${name} renamed` })).toBeVisible();

    await places.deleteThrough("Delete organization");
    await expect(page).toHaveURL(/\/places$/);
    await expect(page.getByRole("link", { name: `${name} renamed` })).toHaveCount(0);

    await page.context().clearCookies();
    await signInAs(page, "manager@demo.local");
    await new PlacesPage(page).goto();
    await expect(page.getByRole("link", { name: "Demo Lending Co." })).toBeVisible();
    await expect(page.getByRole("region", { name: "New organization" })).toHaveCount(0);
  });

  test("a manager adds a company and locations, edits one, and cannot delete what packages use", async ({ page }) => {
    const id = unique();
    const company = `E2E Company ${id}`;
    const used = `E2E Used Branch ${id}`;
    const spare = `E2E Spare Branch ${id}`;
    await signInAs(page, OTHER_MANAGER);
    const places = await new PlacesPage(page).goto();
    await places.open(OTHER_ORG);
    await expectNoAxeViolations(page);

    await places.section("New company").getByLabel("Company name").fill(company);
    await places.section("New company").getByRole("button", { name: "Add company" }).click();
    await expect(page.getByRole("heading", { level: 1, name: company })).toBeVisible();
    await expect(page.getByText("No locations yet.")).toBeVisible();
    await expectNoAxeViolations(page);

    // The API's schema refuses a made-up time zone; what was typed stays.
    const newLocation = places.section("New location");
    await newLocation.getByLabel("Location name").fill(used);
    await newLocation.getByLabel("City (optional)").fill("Waco");
    await newLocation.getByLabel("Time zone").fill("Mars/Olympus");
    await newLocation.getByRole("button", { name: "Add location" }).click();
    await expect(newLocation.getByLabel("Time zone")).toHaveAccessibleDescription(/expected an IANA time zone such as America\/Chicago/);
    await expect(newLocation.getByRole("status")).toHaveText("expected an IANA time zone such as America/Chicago");
    await expect(newLocation.getByLabel("Location name")).toHaveValue(used);
    await expect(newLocation.getByLabel("City (optional)")).toHaveValue("Waco");
    await expectNoAxeViolations(page);
    await newLocation.getByLabel("Time zone").fill("America/Chicago");
    await newLocation.getByRole("button", { name: "Add location" }).click();
    await expect(page.getByRole("heading", { level: 1, name: used })).toBeVisible();
    await expect(page.getByText("Waco · time zone America/Chicago")).toBeVisible();
    await expectNoAxeViolations(page);

    const details = places.section("Location details");
    await details.getByLabel("Postal code (optional)").fill("76701");
    await details.getByRole("button", { name: "Save location" }).click();
    await expect(details.getByRole("status")).toHaveText("Location saved.");
    await expect(page.getByText("Waco, 76701 · time zone America/Chicago")).toBeVisible();

    if (e2eDatabaseUrl()) {
      // A package at the location (the domain's own createSigning): deleting it must be refused with the API's message.
      await withE2eDb(async (db) => {
        const [location] = await db.select().from(locations).where(eq(locations.name, used));
        await createSignerPackage(db, { location: location!, signers: [{ email: `places-${id}@example.test` }], title: `Places e2e ${id}` });
      });
      await places.deleteThrough("Delete location");
      await expect(page.getByRole("dialog")).toBeHidden();
      await expect(page.getByRole("status").filter({ hasText: /still has 1 signing packages; remove them first\./ })).toBeVisible();
      await expect(page.getByRole("button", { name: "Delete location" })).toBeFocused();
      await expect(page.getByRole("heading", { level: 1, name: used })).toBeVisible();
      await expectNoAxeViolations(page);
    }

    await page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: company }).click();
    await places.section("New location").getByLabel("Location name").fill(spare);
    await places.section("New location").getByRole("button", { name: "Add location" }).click();
    await expect(page.getByRole("heading", { level: 1, name: spare })).toBeVisible();
    await places.deleteThrough("Delete location");
    await expect(page.getByRole("heading", { level: 1, name: company })).toBeVisible();
    await expect(page.getByRole("table").getByRole("link", { name: spare })).toHaveCount(0);
    await expect(page.getByRole("table").getByRole("link", { name: used })).toBeVisible();

    // The company still has a location: refused, with the API's message, nothing deleted.
    await places.deleteThrough("Delete company");
    await expect(page.getByRole("status").filter({ hasText: /still has 1 locations/ })).toBeVisible();
    await expect(page.getByRole("heading", { level: 1, name: company })).toBeVisible();

    // An admin reads the same company but is offered no changes.
    const companyUrl = page.url();
    await page.context().clearCookies();
    await signInAs(page, "admin@demo.local");
    await page.goto(companyUrl);
    await expect(page.getByRole("heading", { level: 1, name: company })).toBeVisible();
    await expect(page.getByRole("table").getByRole("link", { name: used })).toBeVisible();
    await expect(page.getByRole("button", { name: /Add location|Delete company|Save name/ })).toHaveCount(0);
    await expectNoAxeViolations(page);
  });
});

test.describe("templates and flows", { tag: "@desktop" }, () => {
  test("a manager creates a template with two roles in order and a PDF", async ({ page }) => {
    const name = `E2E Template ${unique()}`;
    await signInAs(page, OTHER_MANAGER);
    const templates = await new TemplatePages(page).gotoList();
    await expectNoAxeViolations(page);

    await page.getByLabel("Template name").fill(name);
    await page.getByLabel("Description (optional)").fill("Two borrowers, one contract");
    await templates.addRole({ key: "co buyer", label: "Co-buyer", signsAs: "Co-borrower", routingOrder: 2 });
    await templates.addRole({ key: "buyer", label: "Buyer", signsAs: "Borrower", routingOrder: 1 });
    await page.getByRole("button", { name: "Move up Buyer" }).click();
    expect(await templates.roleLabels()).toEqual(["Buyer", "Co-buyer"]);
    await page.getByRole("button", { name: "Create template" }).click();

    // The API's role-key rule, on the row that broke it; the rows stay as typed.
    const coBuyerKey = templates.roleRows().nth(1).getByLabel("Key");
    await expect(coBuyerKey).toHaveAttribute("aria-invalid", "true");
    await expect(coBuyerKey).toHaveAccessibleDescription("expected 1-64 letters, digits, _ or -");
    expect(await templates.roleLabels()).toEqual(["Buyer", "Co-buyer"]);
    await expect(page.getByLabel("Template name")).toHaveValue(name);
    await expectNoAxeViolations(page);
    await coBuyerKey.fill("co_buyer");
    await page.getByRole("button", { name: "Create template" }).click();

    await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
    expect(await templates.roleLabels()).toEqual(["Buyer", "Co-buyer"]);
    await expect(templates.roleRows().nth(1).getByLabel("Routing order")).toHaveValue("2");
    await expect(page.getByText("No documents yet.")).toBeVisible();
    await expectNoAxeViolations(page);

    // The chosen file goes straight to storage and is checked there; a refused one says why and offers Retry.
    const upload = page.getByLabel("PDF document");
    await upload.setInputFiles({ name: "notes.pdf", mimeType: "application/pdf", buffer: Buffer.from("not a pdf at all") });
    await expect(page.getByRole("alert").filter({ hasText: "Not uploaded: The uploaded file is not a readable PDF." })).toBeVisible();
    await expect(page.getByRole("button", { name: "Retry notes.pdf" })).toBeVisible();
    // Posted anyway, the file itself reaches the same check.
    await page.getByRole("button", { name: "Upload document" }).click();
    await expect(page.getByText("The uploaded file is not a readable PDF.").first()).toBeVisible();

    const pdf = await renderAgreementPdf({ title: `${name} contract`, parties: ["Buyer", "Co-buyer"], pages: 2 });
    await upload.setInputFiles({ name: "Installment contract.pdf", mimeType: "application/pdf", buffer: Buffer.from(pdf) });
    await expect(page.getByRole("status").filter({ hasText: "Ready: 2 pages" })).toBeVisible();
    // Only the upload's id is posted: no file in the form's own request.
    const posted = page.waitForRequest((request) => request.method() === "POST" && request.url().includes("/templates/"));
    await page.getByRole("button", { name: "Upload document" }).click();
    expect((await posted).postData() ?? "").not.toContain("%PDF-");
    await expect(templates.message.filter({ hasText: "Added Installment contract.pdf." })).toBeVisible();
    const documents = page.getByRole("list", { name: "Documents" });
    // The name as shown (the document's "Transferable record" checkbox names it again, for screen readers only).
    await expect(documents.getByText("Installment contract.pdf", { exact: true }).first()).toBeVisible();
    await expect(documents.getByText("2 pages")).toBeVisible();
    await expect(page.getByRole("link", { name: "Place fields" })).toHaveAttribute("href", /\/templates\/[0-9a-f-]{36}\/fields$/);
    await expectNoAxeViolations(page);

    // Reorder after the fact and ask the buyer for documents, saved through the same schema.
    await page.getByRole("button", { name: "Move up Co-buyer" }).click();
    await templates.roleRows().nth(1).getByLabel("Documents to ask for").fill("Driver's license\nProof of insurance | current policy (optional)");
    await page.getByRole("button", { name: "Save template" }).click();
    await expect(templates.message.filter({ hasText: "Template saved." })).toBeVisible();
    await page.reload();
    expect(await templates.roleLabels()).toEqual(["Co-buyer", "Buyer"]);
    await expect(templates.roleRows().nth(1).getByLabel("Documents to ask for")).toHaveValue("Driver's license\nProof of insurance | current policy (optional)");
    await expect(templates.roleRows().nth(0).getByLabel("Documents to ask for")).toHaveValue("");

    await page.getByRole("button", { name: "Remove Installment contract.pdf" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Remove document" }).click();
    await expect(page.getByText("No documents yet.")).toBeVisible();

    await templates.gotoList();
    await expect(page.getByRole("row", { name: new RegExp(name) })).toContainText("Co-buyer, Buyer");
  });

  test("a manager creates a flow with its steps reordered, within the API's rules", async ({ page }) => {
    const name = `E2E Flow ${unique()}`;
    await signInAs(page, OTHER_MANAGER);
    const flows = await new FlowPages(page).gotoList();
    await expectNoAxeViolations(page);

    await page.getByLabel("Flow name").fill(name);
    expect(await flows.stepNames()).toEqual(["review", "sign", "done"]);
    await flows.addStep("Link a bank account");
    expect(await flows.stepNames()).toEqual(["review", "sign", "link_bank", "done"]);
    await flows.move("Sign", "up");
    expect(await flows.stepNames()).toEqual(["sign", "review", "link_bank", "done"]);
    await flows.move("Done", "up");
    await page.getByRole("button", { name: "Create flow" }).click();
    await expect(page.getByText("a flow must end with the done step").first()).toBeVisible();
    await expect(page.getByLabel("Flow name")).toHaveValue(name);
    await expectNoAxeViolations(page);

    await flows.move("Done", "down");
    await page.getByRole("button", { name: "Create flow" }).click();
    await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
    expect(await flows.stepNames()).toEqual(["sign", "review", "link_bank", "done"]);
    await expectNoAxeViolations(page);

    await flows.remove("Review documents");
    await page.getByRole("button", { name: "Save flow" }).click();
    await expect(flows.message.filter({ hasText: "Flow saved." })).toBeVisible();
    await flows.gotoList();
    await expect(page.getByRole("listitem").filter({ hasText: name })).toContainText("Sign → Link a bank account → Done");
  });

  test("places, templates and flows are usable at 768 px", async ({ page }) => {
    await page.setViewportSize({ width: 768, height: 1024 });
    await signInAs(page, "manager@demo.local");
    for (const [path, button] of [
      ["/places", null],
      ["/templates", "Create template"],
      ["/flows", "Create flow"],
    ] as const) {
      await page.goto(path);
      await page.getByRole("heading", { level: 1 }).waitFor();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, `${path} scrolls sideways at 768 px`).toBeLessThanOrEqual(0);
      if (button) {
        const box = await page.getByRole("button", { name: button }).boundingBox();
        expect(box && box.x >= 0 && box.x + box.width <= 768).toBe(true);
      }
    }
    const places = await new PlacesPage(page).goto();
    await places.open("Demo Lending Co.");
    // The organization page is the tree's top: each company with its locations.
    await expect(page.getByRole("list", { name: "Locations of Demo Homes Finance" }).getByRole("link", { name: "Austin Branch" })).toBeVisible();
    await places.open("Demo Homes Finance");
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await expectNoAxeViolations(page);

    // Bad addresses: a stale cursor shows the first page; an unknown or malformed id is not found, never a 500.
    expect((await page.goto("/places?cursor=not-a-cursor"))?.status()).toBe(200);
    await expect(page.getByRole("link", { name: "Demo Lending Co." })).toBeVisible();
    for (const path of ["/places/companies/abc", "/places/locations/99999999", "/places/organizations/0", "/templates/not-a-uuid", "/flows/00000000-0000-4000-8000-000000000000"]) {
      expect((await page.goto(path))?.status(), path).toBe(404);
    }
  });
});

test.describe("before hydration", { tag: "@desktop" }, () => {
  test.use({ javaScriptEnabled: false });

  test("forms post without JavaScript: a refused location keeps what was typed, a good one is saved", async ({ page }) => {
    const name = `E2E No-JS Branch ${unique()}`;
    await signInAs(page, OTHER_MANAGER);
    const places = await new PlacesPage(page).goto();
    await places.open(OTHER_ORG);
    await places.open("Other Homes Credit");

    const form = places.section("New location");
    await form.getByLabel("Location name").fill(name);
    await form.getByLabel("Time zone").fill("Nowhere/Special");
    await Promise.all([page.waitForLoadState("load"), form.getByRole("button", { name: "Add location" }).click()]);
    await expect(form.getByLabel("Time zone")).toHaveAccessibleDescription(/expected an IANA time zone/);
    await expect(form.getByLabel("Location name")).toHaveValue(name);
    await expect(form.getByLabel("Time zone")).toHaveValue("Nowhere/Special");

    await form.getByLabel("Time zone").fill("America/Chicago");
    await Promise.all([page.waitForLoadState("load"), form.getByRole("button", { name: "Add location" }).click()]);
    // (No axe here: it runs in the page, which has no JavaScript; the same pages are checked above.)
    await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  });
});
