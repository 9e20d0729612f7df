import type { Locator, Page } from "@playwright/test";

/** /places and its organization, company and location pages (manager's console). */
export class PlacesPage {
  readonly heading: Locator;
  readonly message: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { level: 1 });
    this.message = page.getByRole("status").filter({ hasText: /\S/ });
  }

  async goto(): Promise<this> {
    await this.page.goto("/places");
    await this.page.getByRole("heading", { level: 1, name: "Places" }).waitFor();
    return this;
  }

  /** Follows a link in the page's main content (an organization, company or location) and waits for its page. */
  async open(name: string): Promise<void> {
    await this.page.getByRole("main").getByRole("link", { name, exact: true }).click();
    await this.page.getByRole("heading", { level: 1, name, exact: true }).waitFor();
  }

  section(name: string): Locator {
    return this.page.getByRole("region", { name });
  }

  /** Opens the "Delete …" confirmation, confirms, and leaves the page to say what happened. */
  async deleteThrough(label: string): Promise<void> {
    await this.page.getByRole("button", { name: label, exact: true }).click();
    const dialog = this.page.getByRole("dialog");
    await dialog.waitFor();
    await dialog.getByRole("button", { name: label, exact: true }).click();
  }
}
