import type { Locator, Page } from "@playwright/test";

/**
 * The signing steps on a package page (`SignPanel`): consent, adopting a signature in its dialog,
 * and one Sign button per document — found by role and name, as assistive technology finds them.
 */
export class SignPanel {
  readonly consentBox: Locator;
  readonly agree: Locator;
  readonly adopt: Locator;
  readonly change: Locator;
  readonly dialog: Locator;
  readonly signatureHeading: Locator;
  readonly status: Locator;
  readonly progress: Locator;
  /** What replaces the panel once every document is signed: the bank step's lead-in, or the done page. */
  readonly allSigned: Locator;

  constructor(readonly page: Page) {
    this.consentBox = page.getByLabel("I have read this disclosure and agree to receive and sign these documents electronically.");
    this.agree = page.getByRole("button", { name: "Agree and continue" });
    this.adopt = page.getByRole("button", { name: "Adopt your signature" });
    this.change = page.getByRole("button", { name: "Change signature" });
    this.dialog = page.getByRole("dialog", { name: "Adopt your signature" });
    this.signatureHeading = page.getByRole("heading", { name: "Your signature" });
    // The panel's own live region (the viewer beside it has its own).
    this.status = page.getByRole("region", { name: "Sign", exact: true }).getByRole("status");
    this.allSigned = page.getByRole("heading", { name: /^You’ve signed/ }).first();
    this.progress = page.getByText(/ of \d+ left$|^All documents signed$/);
  }

  async goto(signingId: string): Promise<this> {
    await this.page.goto(`/signings/${signingId}`);
    await this.page.getByRole("heading", { level: 2, name: "Sign" }).waitFor();
    return this;
  }

  async consent(): Promise<void> {
    await this.consentBox.check();
    await this.agree.click();
    await this.signatureHeading.waitFor();
  }

  signButton(documentName: string): Locator {
    return this.page.getByRole("button", { name: `Sign ${documentName}` });
  }

  documentRow(documentName: string): Locator {
    return this.page.getByRole("list", { name: "Documents to sign" }).getByRole("listitem").filter({ hasText: documentName });
  }

  async openDialog(): Promise<void> {
    await (await this.adopt.isVisible() ? this.adopt : this.change).click();
    await this.dialog.waitFor();
  }

  async adoptTyped(name: string, style: string): Promise<void> {
    await this.openDialog();
    await this.dialog.getByLabel("Your name as you sign it").fill(name);
    await this.dialog.getByRole("radio", { name: new RegExp(style) }).check();
    await this.dialog.getByRole("button", { name: "Adopt signature" }).click();
    await this.dialog.waitFor({ state: "hidden" });
  }

  async chooseDraw(): Promise<Locator> {
    await this.dialog.getByRole("tab", { name: "Draw" }).click();
    const canvas = this.dialog.getByTestId("signature-canvas");
    await canvas.waitFor();
    return canvas;
  }

  /**
   * Draws `strokes` (each a list of points in the canvas's CSS pixels) with the mouse, or with touch
   * events through the DevTools protocol (what a finger on a phone produces).
   */
  async draw(canvas: Locator, strokes: [number, number][][], input: "mouse" | "touch"): Promise<void> {
    const box = (await canvas.boundingBox())!;
    const at = ([x, y]: [number, number]) => ({ x: box.x + x, y: box.y + y });
    if (input === "mouse") {
      for (const stroke of strokes) {
        await this.page.mouse.move(at(stroke[0]!).x, at(stroke[0]!).y);
        await this.page.mouse.down();
        for (const point of stroke.slice(1)) await this.page.mouse.move(at(point).x, at(point).y, { steps: 4 });
        await this.page.mouse.up();
      }
      return;
    }
    const cdp = await this.page.context().newCDPSession(this.page);
    for (const stroke of strokes) {
      await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [at(stroke[0]!)] });
      for (const point of stroke.slice(1)) await cdp.send("Input.dispatchTouchEvent", { type: "touchMove", touchPoints: [at(point)] });
      await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
    }
    await cdp.detach();
  }
}

/** A wavy signature-like stroke across `width` CSS pixels, and a second short one. */
export function signatureStrokes(width: number, height: number): [number, number][][] {
  const wave: [number, number][] = [];
  for (let i = 0; i <= 24; i++) {
    const x = width * 0.1 + (width * 0.7 * i) / 24;
    wave.push([x, height * 0.55 + Math.sin(i / 2) * height * 0.2]);
  }
  return [wave, [[width * 0.75, height * 0.35], [width * 0.85, height * 0.7], [width * 0.9, height * 0.4]]];
}
