import type { Locator, Page } from "@playwright/test";

export class SignOutPage {
  readonly heading: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { level: 1, name: "Sign out?" });
  }

  async confirm(): Promise<void> {
    await this.heading.waitFor();
    await Promise.all([
      this.page.waitForURL((url) => url.pathname === "/sign-in"),
      this.page.getByRole("button", { name: "Sign out" }).click(),
    ]);
  }
}
