import type { Locator, Page } from "playwright-core";

export class HomePage {
  readonly heading: Locator;
  readonly currentUser: Locator;
  readonly assignedTable: Locator;
  readonly managedTable: Locator;
  readonly managedHeading: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { level: 1 });
    this.currentUser = page.getByTestId("current-user");
    this.assignedTable = page.getByTestId("assigned-signings");
    this.managedTable = page.getByTestId("managed-signings");
    this.managedHeading = page.locator("#managed-heading");
  }

  async goto(): Promise<this> {
    await this.page.goto("/");
    await this.heading.waitFor();
    return this;
  }

  /** The package titles listed in a table (its row headers). */
  async titles(table: Locator): Promise<string[]> {
    if ((await table.count()) === 0) return [];
    return (await table.locator("tbody th[scope=row]").allTextContents()).map((t) => t.trim());
  }

  async statusOf(table: Locator, title: string): Promise<string> {
    const row = table.locator("tbody tr").filter({ has: this.page.getByRole("rowheader", { name: title, exact: true }) });
    return (await row.locator("td").nth(2).textContent())?.trim() ?? "";
  }

  async openSignOut(): Promise<void> {
    await this.page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Sign out" }).click();
    await this.page.waitForURL((url) => url.pathname === "/sign-out");
  }

  async openApiKeys(): Promise<void> {
    await this.page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "API keys" }).click();
    await this.page.waitForURL((url) => url.pathname === "/settings/api-keys");
  }
}
