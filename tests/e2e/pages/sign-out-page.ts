import type { Page } from "playwright-core";

export class SignOutPage {
  constructor(readonly page: Page) {}

  async confirm(): Promise<void> {
    await this.page.getByRole("heading", { level: 1, name: "Sign out?" }).waitFor();
    await Promise.all([
      this.page.waitForURL((url) => url.pathname === "/sign-in"),
      this.page.getByRole("button", { name: "Sign out" }).click(),
    ]);
  }
}
