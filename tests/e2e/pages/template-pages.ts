import type { Locator, Page } from "@playwright/test";

/** /templates and /templates/<id>: the template form with its signer-role rows, and the documents. */
export class TemplatePages {
  readonly message: Locator;

  constructor(readonly page: Page) {
    this.message = page.getByRole("status").filter({ hasText: /\S/ });
  }

  async gotoList(): Promise<this> {
    await this.page.goto("/templates");
    await this.page.getByRole("heading", { level: 1, name: "Templates" }).waitFor();
    return this;
  }

  roleRows(): Locator {
    return this.page.getByRole("group", { name: "Signer roles" }).getByRole("listitem");
  }

  /** Adds a role row and fills it. */
  async addRole(role: { key: string; label: string; signsAs: "Borrower" | "Co-borrower"; routingOrder: number }): Promise<void> {
    await this.page.getByRole("button", { name: "Add role" }).click();
    const row = this.roleRows().last();
    await row.getByLabel("Key").fill(role.key);
    await row.getByLabel("Label").fill(role.label);
    await row.getByLabel("Signs as").selectOption({ label: role.signsAs });
    await row.getByLabel("Routing order").fill(String(role.routingOrder));
  }

  /** The labels of the role rows, in order. */
  async roleLabels(): Promise<string[]> {
    return this.roleRows().getByLabel("Label").evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value));
  }
}
