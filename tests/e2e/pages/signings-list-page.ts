import type { Locator, Page } from "@playwright/test";

/** The manager's package list (`/signings`): filters, status tabs with counts, the table, paging. */
export class SigningsListPage {
  readonly heading: Locator;
  readonly filters: Locator;
  readonly search: Locator;
  readonly location: Locator;
  readonly company: Locator;
  readonly createdFrom: Locator;
  readonly createdTo: Locator;
  readonly tabs: Locator;
  readonly table: Locator;
  readonly summary: Locator;
  readonly emptyState: Locator;
  readonly pages: Locator;
  readonly adminCap: Locator;
  /** What the page ignored in a hand-edited address (Next's route announcer is an alert too). */
  readonly addressNotice: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { level: 1, name: "Packages" });
    this.filters = page.getByRole("search", { name: "Filter packages" });
    this.search = this.filters.getByLabel("Search");
    this.location = this.filters.getByLabel("Location");
    this.company = this.filters.getByLabel("Company");
    this.createdFrom = this.filters.getByLabel("Created from");
    this.createdTo = this.filters.getByLabel("Created to");
    this.tabs = page.getByRole("navigation", { name: "Package status" });
    this.table = page.getByRole("table", { name: /signing packages$/ });
    this.summary = page.getByRole("status").filter({ hasText: /^(Showing|No )/ });
    this.emptyState = page.getByTestId("empty-state");
    this.pages = page.getByRole("navigation", { name: "Pages" });
    this.adminCap = page.getByTestId("admin-cap");
    this.addressNotice = page.getByRole("alert").filter({ hasText: /Ignored|no longer valid/ });
  }

  async goto(search = ""): Promise<this> {
    await this.page.goto(`/signings${search}`);
    await this.heading.waitFor();
    return this;
  }

  async applyFilters(): Promise<void> {
    await this.filters.getByRole("button", { name: "Apply filters" }).click();
    await this.page.waitForURL((url) => url.pathname === "/signings" && url.search.length > 0);
    await this.heading.waitFor();
  }

  /** A status tab's link, e.g. "Draft" (its accessible name also holds the count). */
  tab(label: string): Locator {
    return this.tabs.getByRole("link", { name: new RegExp(`^${label} [\\d,]+$`) });
  }

  async countOf(label: string): Promise<number> {
    const text = (await this.tab(label).textContent()) ?? "";
    return Number(text.replace(label, "").replace(/[^\d]/g, ""));
  }

  row(title: string): Locator {
    return this.table.getByRole("row").filter({ has: this.page.getByRole("rowheader").filter({ has: this.page.getByRole("link", { name: title, exact: true }) }) });
  }

  async titles(): Promise<string[]> {
    if ((await this.table.count()) === 0) return [];
    return (await this.table.getByRole("rowheader").getByRole("link").allTextContents()).map((t) => t.trim());
  }

  signerBadge(title: string, name: string): Locator {
    return this.row(title).getByRole("list", { name: "Signers" }).getByRole("listitem").filter({ hasText: name });
  }
}
