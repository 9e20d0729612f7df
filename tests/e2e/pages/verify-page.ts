import type { Locator, Page } from "@playwright/test";

/** The public /verify page: one file input, one button, one result region. */
export class VerifyPage {
  readonly heading: Locator;
  readonly file: Locator;
  readonly check: Locator;
  readonly result: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { level: 1, name: "Verify a sealed PDF" });
    this.file = page.getByLabel("PDF to check");
    this.check = page.getByRole("button", { name: "Check the PDF" });
    this.result = page.getByTestId("verify-result");
  }

  async goto(): Promise<this> {
    await this.page.goto("/verify");
    return this;
  }

  async checkFile(name: string, bytes: Uint8Array): Promise<void> {
    await this.file.setInputFiles({ name, mimeType: "application/pdf", buffer: Buffer.from(bytes) });
    await this.check.click();
  }
}
