import type { Locator, Page } from "@playwright/test";

export class SignInPage {
  readonly heading: Locator;
  readonly email: Locator;
  readonly password: Locator;
  readonly submit: Locator;
  /** The form's error region (`aria-describedby` of the form), empty until an attempt fails. */
  readonly alert: Locator;
  readonly status: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { level: 1, name: "Sign in" });
    this.email = page.getByLabel("Email");
    this.password = page.getByLabel("Password");
    this.submit = page.getByRole("button", { name: "Sign in", exact: true });
    // An empty live region has no accessible content yet, so it is found by the id the form points at.
    this.alert = page.locator("#sign-in-error");
    this.status = page.getByRole("status");
  }

  /** Opens /sign-in (with the page to return to, if given). */
  async goto(returnTo?: string): Promise<this> {
    await this.page.goto(returnTo ? `/sign-in?callbackUrl=${encodeURIComponent(returnTo)}` : "/sign-in");
    await this.heading.waitFor();
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
