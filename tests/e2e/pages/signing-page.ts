import type { Locator, Page } from "@playwright/test";

/** The signer's package page, `/signings/<id>`, in any of its states. */
export class SigningPage {
  readonly title: Locator;
  /** The state's own heading on non-signing screens and while waiting ("You declined this package", "Waiting for …"). */
  readonly stateHeading: Locator;
  readonly steps: Locator;
  readonly currentStep: Locator;
  readonly signers: Locator;
  readonly bottomBar: Locator;
  readonly declineButton: Locator;
  readonly declineDialog: Locator;
  readonly declineReason: Locator;
  readonly confirmDecline: Locator;
  readonly keepPackage: Locator;

  constructor(readonly page: Page) {
    this.title = page.getByRole("heading", { level: 1 });
    this.stateHeading = page.locator("#state-heading");
    this.steps = page.getByRole("list", { name: "Steps" });
    this.currentStep = this.steps.locator('[aria-current="step"]');
    this.signers = page.getByRole("list", { name: "Signers" });
    this.bottomBar = page.getByTestId("bottom-bar");
    this.declineButton = page.getByRole("button", { name: "Decline to sign" });
    this.declineDialog = page.getByRole("dialog", { name: "Decline this package?" });
    this.declineReason = this.declineDialog.getByLabel("Reason for declining");
    this.confirmDecline = this.declineDialog.getByRole("button", { name: "Decline the package" });
    this.keepPackage = this.declineDialog.getByRole("button", { name: "Keep the package" });
  }

  async goto(id: string): Promise<this> {
    await this.page.goto(`/signings/${id}`);
    await this.title.waitFor();
    return this;
  }

  signer(name: string): Locator {
    return this.signers.getByRole("listitem").filter({ hasText: name });
  }
}

/** `/signings/<id>/done`. */
export class DonePage {
  readonly heading: Locator;
  readonly status: Locator;
  readonly signed: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { level: 1, name: "You’ve signed" });
    this.status = page.getByTestId("package-status");
    this.signed = page.getByRole("region", { name: "What you signed" });
  }
}
