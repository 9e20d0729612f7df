import type { Locator, Page } from "@playwright/test";

const ASSIGNED = "Signing packages assigned to you";
const MANAGED = /^(Signing packages you manage|All signing packages)$/;

export class HomePage {
  readonly heading: Locator;
  readonly nav: Locator;
  readonly currentUser: Locator;
  /** Wide screens: the packages as tables (named by their captions). */
  readonly assignedTable: Locator;
  readonly managedTable: Locator;
  /** Phones: the same packages as lists. */
  readonly assignedList: Locator;
  readonly managedHeading: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { level: 1 });
    this.nav = page.getByRole("navigation", { name: "Main" });
    this.currentUser = page.getByTestId("current-user");
    this.assignedTable = page.getByRole("table", { name: ASSIGNED });
    this.managedTable = page.getByRole("table", { name: MANAGED });
    this.assignedList = page.getByRole("list", { name: ASSIGNED });
    this.managedHeading = page.getByRole("heading", { level: 2, name: /signing packages$/ });
  }

  async goto(): Promise<this> {
    await this.page.goto("/");
    await this.heading.waitFor();
    return this;
  }

  /** The package titles listed in a table (its row headers). */
  async titles(table: Locator): Promise<string[]> {
    if ((await table.count()) === 0) return [];
    return (await table.getByRole("rowheader").allTextContents()).map((t) => t.trim());
  }

  row(table: Locator, title: string): Locator {
    return table.getByRole("row").filter({ has: this.page.getByRole("rowheader", { name: title, exact: true }) });
  }

  /** The Status column (cells after the row header: organization, location, status). */
  async statusOf(table: Locator, title: string): Promise<string> {
    return (await this.row(table, title).getByRole("cell").nth(2).textContent())?.trim() ?? "";
  }

  async openSignOut(): Promise<void> {
    // In the header beside the signed-in person's name, not in the "Main" nav (components/site-header.tsx).
    await this.page.getByRole("banner").getByRole("link", { name: "Sign out" }).click();
    await this.page.waitForURL((url) => url.pathname === "/sign-out");
  }

  async openApiKeys(): Promise<void> {
    await this.nav.getByRole("link", { name: "API keys" }).click();
    await this.page.waitForURL((url) => url.pathname === "/settings/api-keys");
  }
}
