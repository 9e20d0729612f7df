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

  /**
   * Drags a palette type onto a page with the mouse (HTML5 drag and drop in Chromium). Both ends
   * must be on screen: a scroll between press and move would start the drag from another button.
   */
  async dragOnto(type: string, pageNumber: number, position: { x: number; y: number }): Promise<void> {
    const source = (await this.paletteButton(type).boundingBox())!;
    const target = (await this.pageSurface(pageNumber).boundingBox())!;
    await this.page.mouse.move(source.x + source.width / 2, source.y + source.height / 2);
    await this.page.mouse.down();
    await this.page.mouse.move(target.x + position.x, target.y + position.y, { steps: 8 });
    await this.page.mouse.up();
  }

  save(documentName: string): Locator {
    return this.page.getByRole("button", { name: `Save fields on ${documentName}` });
  }
}
