import type { Page } from "playwright-core";

export class ApiKeysPage {
  constructor(readonly page: Page) {}

  async goto(): Promise<this> {
    await this.page.goto("/settings/api-keys");
    await this.page.getByRole("heading", { level: 1, name: "API keys" }).waitFor();
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

  keyRow(name: string) {
    return this.page.getByTestId("api-keys").locator("tbody tr").filter({ has: this.page.getByRole("rowheader", { name, exact: true }) });
  }

  async revoke(name: string): Promise<void> {
    await this.page.getByRole("button", { name: `Revoke ${name}` }).click();
    await this.keyRow(name).getByText("Revoked").waitFor();
  }
}
