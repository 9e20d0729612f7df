import type { Locator, Page } from "@playwright/test";

/** The manager's field placement editor (`/signings/<id>/fields`, `/templates/<id>/fields`). */
export class FieldEditorPage {
  readonly heading: Locator;
  readonly party: Locator;
  readonly label: Locator;
  readonly x: Locator;
  readonly y: Locator;
  readonly message: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { level: 1, name: /^Place fields/ });
    this.party = page.getByLabel(/^For (signer|role)$/);
    this.label = page.getByLabel("Label (shown to the signer)");
    this.x = page.getByLabel("X (pt)");
    this.y = page.getByLabel("Y (pt)");
    this.message = page.getByRole("status").filter({ hasText: /Saved|field/ });
  }

  async goto(path: string): Promise<this> {
    await this.page.goto(path);
    await this.heading.waitFor();
    return this;
  }

  /** The drop surface over a rendered page (present once pdf.js has read the page). */
  pageSurface(pageNumber: number): Locator {
    return this.page.locator(`[data-field-drop-page="${pageNumber}"]`);
  }

  paletteButton(type: string): Locator {
    return this.page.getByRole("list", { name: "Field types" }).getByRole("button", { name: type, exact: true });
  }

  /** A placed field on a page, by its accessible name ("Signature for Sam Signer, page 1"). */
  field(name: string | RegExp): Locator {
    return this.page.getByRole("button", { name });
  }

  async dragOnto(type: string, pageNumber: number, position: { x: number; y: number }): Promise<void> {
    await this.paletteButton(type).dragTo(this.pageSurface(pageNumber), { targetPosition: position });
  }

  save(documentName: string): Locator {
    return this.page.getByRole("button", { name: `Save fields on ${documentName}` });
  }
}
