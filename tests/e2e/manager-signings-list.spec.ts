import { eq } from "drizzle-orm";
import { locations } from "@/db/schema";
import { createSignerPackage } from "../helpers/signing-fixtures";
import { SigningsListPage } from "./pages/signings-list-page";
import { e2eDatabaseUrl, expect, expectNoAxeViolations, signInAs, test } from "./support/fixtures";
import { withE2eDb } from "./support/signing-data";

// The manager's package list. Every package here carries one tag unique to the run and the list is
// searched for it, so other specs' packages never change the figures checked below.
const TAG = `LIST${Date.now().toString(36)}`;
const DRAFTS = 26;

test.describe("the manager's package list", () => {
  test.beforeAll(async () => {
    if (!e2eDatabaseUrl()) return;
    await withE2eDb(async (db) => {
      const [austin] = await db.select().from(locations).where(eq(locations.name, "Austin Branch"));
      const [dallas] = await db.select().from(locations).where(eq(locations.name, "Dallas Branch"));
      for (let i = 1; i <= DRAFTS; i++) {
        await createSignerPackage(db, { location: dallas!, status: "draft", documentCount: 0, signers: [{ email: "dora@list-e2e.test" }], title: `${TAG} draft ${String(i).padStart(2, "0")}` });
      }
      await createSignerPackage(db, {
        location: austin!,
        status: "sent",
        signers: [{ email: "riley@list-e2e.test" }, { email: "jordan@list-e2e.test", role: "co_signer" }],
        title: `${TAG} sent`,
      });
      await createSignerPackage(db, { location: austin!, status: "completed", signers: [{ email: "kim@list-e2e.test" }], title: `${TAG} done` });
    });
  });

  test.beforeEach(() => {
    test.skip(!e2eDatabaseUrl(), "needs the run's PostgreSQL database to create packages (PGlite is held by the server)");
  });

  test("search, tabs with counts, filters in the URL, keyset paging, signer badges, the row's action", { tag: "@desktop" }, async ({ page }) => {
    await signInAs(page, "manager@demo.local");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Packages" }).click();
    const list = new SigningsListPage(page);
    await list.heading.waitFor();
    await expect(page.getByRole("link", { name: "New package" })).toHaveAttribute("href", "/signings/new");
    await expectNoAxeViolations(page);

    await list.search.fill(TAG);
    await list.applyFilters();
    expect(new URL(page.url()).searchParams.get("q")).toBe(TAG);
    await expect(list.tab("All")).toHaveAttribute("aria-current", "page");
    expect(await list.countOf("All")).toBe(DRAFTS + 2);
    expect(await list.countOf("Draft")).toBe(DRAFTS);
    expect(await list.countOf("Sent")).toBe(1);
    expect(await list.countOf("Completed")).toBe(1);
    expect(await list.countOf("In progress")).toBe(0);

    // Keyset paging: 25 newest first, then the rest behind "Older packages"; nothing twice, nothing lost.
    await expect(list.table.getByRole("rowheader")).toHaveCount(25);
    const first = await list.titles();
    expect(first[0]).toBe(`${TAG} done`);
    await list.pages.getByRole("link", { name: "Older packages" }).click();
    await page.waitForURL((url) => url.searchParams.has("cursor"));
    await expect(list.table.getByRole("rowheader")).toHaveCount(DRAFTS + 2 - 25);
    const second = await list.titles();
    expect(new Set([...first, ...second]).size).toBe(DRAFTS + 2);
    expect(second).toContain(`${TAG} draft 01`);
    await expect(list.pages.getByRole("link", { name: "Older packages" })).toHaveCount(0);
    await list.pages.getByRole("link", { name: "Newest packages" }).click();
    await page.waitForURL((url) => !url.searchParams.has("cursor"));
    expect(await list.titles()).toEqual(first);

    // The Sent tab: each signer as a badge with status and time; Remind and View fit a sent package.
    await list.tab("Sent").click();
    await page.waitForURL((url) => url.searchParams.get("status") === "sent" && url.searchParams.get("q") === TAG);
    await expect(list.tab("Sent")).toHaveAttribute("aria-current", "page");
    expect(await list.titles()).toEqual([`${TAG} sent`]);
    await expect(list.signerBadge(`${TAG} sent`, "riley")).toContainText(/Notified.*UTC/);
    await expect(list.signerBadge(`${TAG} sent`, "jordan")).toContainText("(co-signer)");
    await expect(list.row(`${TAG} sent`)).toContainText("0 of 2 signed");
    await list.row(`${TAG} sent`).getByRole("button", { name: `Remind signers of ${TAG} sent` }).click();
    await expect(list.row(`${TAG} sent`).getByRole("status")).toHaveText("Reminder sent to 2 signers.");
    await expect(list.row(`${TAG} sent`).getByRole("link", { name: `View ${TAG} sent` })).toBeVisible();
    await expectNoAxeViolations(page);

    // A bookmarked view opens as it was left; a location filter narrows the counts too.
    const bookmark = new URL(page.url());
    await list.goto(bookmark.search);
    await expect(list.search).toHaveValue(TAG);
    await expect(list.tab("Sent")).toHaveAttribute("aria-current", "page");
    await list.location.selectOption({ label: "Dallas Branch" });
    await list.applyFilters();
    expect(new URL(page.url()).searchParams.get("status")).toBe("sent");
    expect(await list.countOf("All")).toBe(DRAFTS);
    expect(await list.countOf("Sent")).toBe(0);
    await expect(list.emptyState).toContainText("Nothing matches these filters");
    await expect(list.summary).toHaveText("No sent packages match these filters.");
    await expectNoAxeViolations(page);

    // Drafts offer "Edit draft"; a date range before any package empties every tab.
    await list.tab("Draft").click();
    await page.waitForURL((url) => url.searchParams.get("status") === "draft");
    await expect(list.row(`${TAG} draft 26`).getByRole("link", { name: `Edit draft ${TAG} draft 26` })).toHaveAttribute("href", /\/signings\/[0-9a-f-]{36}\/edit$/);
    await list.createdTo.fill("2000-01-31");
    await list.applyFilters();
    expect(new URL(page.url()).searchParams.get("createdTo")).toBe("2000-01-31");
    expect(await list.countOf("All")).toBe(0);

    // A hand-edited address: the bad filter is named and ignored, the rest apply.
    await list.goto(`?q=${TAG}&createdFrom=31-01-2000&cursor=forged.cursor`);
    await expect(list.addressNotice).toContainText("Ignored an invalid created-from date");
    await expect(list.addressNotice).toContainText("That page link is no longer valid");
    expect(await list.countOf("All")).toBe(DRAFTS + 2);
  });

  test("usable at 768 px: filters, tabs, rows and paging without a page-wide horizontal scroll", { tag: "@desktop" }, async ({ page }) => {
    await page.setViewportSize({ width: 768, height: 1000 });
    await signInAs(page, "manager@demo.local");
    const list = await new SigningsListPage(page).goto(`?q=${TAG}`);
    await expect(list.search).toBeVisible();
    await expect(list.tab("Draft")).toBeVisible();
    await expect(list.row(`${TAG} sent`)).toBeVisible();
    await expect(list.pages.getByRole("link", { name: "Older packages" })).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await expectNoAxeViolations(page);
  });

  test("an admin reads every organization with the cap stated and no write actions; a signer is sent home", { tag: "@desktop" }, async ({ page, browser }) => {
    await signInAs(page, "admin@demo.local");
    const list = await new SigningsListPage(page).goto(`?q=${TAG}&status=sent`);
    await expect(list.adminCap).toContainText("every organization");
    await expect(list.adminCap).toContainText("admin read cap");
    await expect(list.row(`${TAG} sent`)).toContainText("Demo Lending Co.");
    await expect(list.row(`${TAG} sent`).getByRole("button", { name: /Remind/ })).toHaveCount(0);
    await expect(page.getByRole("link", { name: "New package" })).toHaveCount(0);
    await expectNoAxeViolations(page);

    const context = await browser.newContext({ baseURL: test.info().project.use.baseURL });
    const signerPage = await context.newPage();
    await signInAs(signerPage, "signer@demo.local");
    await expect(signerPage.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Packages" })).toHaveCount(0);
    await signerPage.goto("/signings");
    await signerPage.waitForURL((url) => url.pathname === "/");
    await context.close();
  });
});
