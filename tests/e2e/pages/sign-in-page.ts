import type { Locator, Page } from "playwright-core";

export class SignInPage {
  readonly email: Locator;
  readonly password: Locator;
  readonly submit: Locator;
  readonly alert: Locator;
  readonly status: Locator;

  constructor(readonly page: Page) {
    this.email = page.getByLabel("Email");
    this.password = page.getByLabel("Password");
    this.submit = page.getByRole("button", { name: "Sign in", exact: true });
    this.alert = page.locator("#sign-in-error");
    this.status = page.getByRole("status");
  }

  async goto(): Promise<this> {
    await this.page.goto("/sign-in");
    await this.page.getByRole("heading", { level: 1, name: "Sign in" }).waitFor();
    return this;
  }

  /** Signs in through the form and waits for the page it returns to (home by default). */
  async signIn(email: string, password: string, landsOn = "/"): Promise<void> {
    await this.fill(email, password);
    await Promise.all([this.page.waitForURL((url) => url.pathname === landsOn), this.submit.click()]);
  }

  async fill(email: string, password: string): Promise<void> {
    await this.email.fill(email);
    await this.password.fill(password);
  }

  demoAccountButton(name: string): Locator {
    return this.page.getByRole("button", { name: new RegExp(`^Sign in as ${name}\\b`) });
  }
}
