import type { Locator, Page } from "@playwright/test";

export class ApiKeysPage {
  readonly heading: Locator;
  readonly keysTable: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { level: 1, name: "API keys" });
    this.keysTable = page.getByRole("table", { name: "Your API keys" });
  }

  async goto(): Promise<this> {
    await this.page.goto("/settings/api-keys");
    await this.heading.waitFor();
    return this;
  }

  /** Creates a key and returns the clear key, which the page shows exactly once. */
  async create(name: string): Promise<string> {
    await this.page.getByLabel("Key name").fill(name);
    await this.page.getByRole("button", { name: "Create key" }).click();
    const value = this.page.getByLabel("New API key");
    await value.waitFor();
    return value.inputValue();
  }

  keyRow(name: string): Locator {
    return this.keysTable.getByRole("row").filter({ has: this.page.getByRole("rowheader", { name, exact: true }) });
  }

  async revoke(name: string): Promise<void> {
    await this.page.getByRole("button", { name: `Revoke ${name}` }).click();
    await this.keyRow(name).getByText("Revoked").waitFor();
  }
}
