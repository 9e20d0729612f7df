import type { Locator, Page } from "@playwright/test";

/** The documents viewer on a signer's package page (components/pdf-viewer). */
export class DocumentsViewerPage {
  readonly pages: Locator;
  readonly zoomIn: Locator;
  readonly zoomOut: Locator;
  readonly fitWidth: Locator;
  readonly zoomLevel: Locator;
  readonly jumpInput: Locator;
  readonly jumpButton: Locator;
  readonly download: Locator;
  readonly status: Locator;

  constructor(readonly page: Page) {
    this.pages = page.getByRole("region", { name: /, \d+ pages?$/ });
    this.zoomIn = page.getByRole("button", { name: "Zoom in" });
    this.zoomOut = page.getByRole("button", { name: "Zoom out" });
    this.fitWidth = page.getByRole("button", { name: "Fit width" });
    this.zoomLevel = page.getByRole("status", { name: "Zoom level" });
    this.jumpInput = page.getByLabel("Go to page");
    this.jumpButton = page.getByRole("button", { name: "Go", exact: true });
    this.download = page.getByRole("link", { name: /^Download/ });
    this.status = page.locator("p[role=status]");
  }

  async goto(packageId: string): Promise<this> {
    await this.page.goto(`/signings/${packageId}`);
    await this.firstPagePainted();
    return this;
  }

  async firstPagePainted(): Promise<void> {
    await this.page.locator("[data-first-page-painted]").waitFor();
  }

  pageGroup(n: number, of: number): Locator {
    return this.page.getByRole("group", { name: `Page ${n} of ${of}` });
  }

  counter(n: number, of: number): Locator {
    return this.page.getByRole("toolbar").getByText(`Page ${n} of ${of}`, { exact: true });
  }

  async jumpTo(value: string): Promise<void> {
    await this.jumpInput.fill(value);
    await this.jumpButton.click();
  }
}
