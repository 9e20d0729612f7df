import type { Locator, Page } from "@playwright/test";

/** The flow's bank step, `/signings/<id>/bank`. */
export class BankStepPage {
  readonly heading: Locator;
  readonly linkButton: Locator;
  readonly tryAgainButton: Locator;
  readonly differentBankButton: Locator;
  readonly connectedHeading: Locator;
  readonly institution: Locator;
  /** The polite live region: exits, the expired-token notice, "not saved", progress. */
  readonly status: Locator;
  readonly alert: Locator;
  readonly steps: Locator;
  readonly currentStep: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { level: 1, name: "Link your bank" });
    this.linkButton = page.getByRole("button", { name: "Link your bank", exact: true });
    this.tryAgainButton = page.getByRole("button", { name: "Try again" });
    this.differentBankButton = page.getByRole("button", { name: "Link a different bank" });
    this.connectedHeading = page.getByRole("heading", { level: 2, name: "Connected" });
    this.institution = page.getByTestId("bank-institution");
    this.status = page.getByRole("status");
    this.alert = page.getByRole("alert").filter({ hasText: /./ });
    this.steps = page.getByRole("list", { name: "Steps" });
    this.currentStep = this.steps.locator('[aria-current="step"]');
  }

  static path(signingId: string): string {
    return `/signings/${signingId}/bank`;
  }

  async goto(signingId: string): Promise<this> {
    await this.page.goto(BankStepPage.path(signingId));
    await this.heading.waitFor();
    return this;
  }

  continueLink(name: string | RegExp): Locator {
    return this.page.getByRole("link", { name });
  }
}

/**
 * The seeded sample package's id from the signer's home (rows and cards carry `data-signing-id`), found
 * by its title, not as the first row: by the time the phone project runs, other specs have added (and
 * signed) packages for the demo signer.
 */
export async function demoPackageSigningId(page: Page): Promise<string> {
  const id = await page
    .locator("[data-signing-id]")
    .filter({ hasText: "Retail installment contract — Sam Signer" })
    .first()
    .getAttribute("data-signing-id");
  if (!id) throw new Error("home does not list the sample package for this signer");
  return id;
}
