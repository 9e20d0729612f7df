import { pngDataUrl } from "../helpers/signing-fixtures";
import { expect, expectNoAxeViolations, signInAs, test } from "./support/fixtures";

/** A real PNG of `width` × `height` pixels, as bytes. */
const png = (width: number, height: number) => Buffer.from(pngDataUrl(width, height).split(",")[1]!, "base64");

test.describe("the lender's brand in the workspace settings", { tag: "@desktop" }, () => {
  test("refuses an unreadable colour with the reason, previews the brand before saving, uploads and removes a logo", async ({ page }, testInfo) => {
    test.setTimeout(120_000);
    await signInAs(page, "owner@demo.local");
    await page.goto("/workspace/settings");
    try {
      // A light amber: white text on it cannot be read.
      await page.getByLabel("Brand colour").fill("#ffcc00");
      await page.getByRole("button", { name: "Preview branding" }).click();
      await expect(page.getByText(/too light to read/).first()).toBeVisible();
      await expect(page.getByLabel("Brand colour")).toHaveAttribute("aria-invalid", "true");
      await expect(page.getByLabel("Brand colour")).toHaveValue("#ffcc00");

      // A dark green and a display name: previewed, not saved.
      await page.getByLabel("Brand colour").fill("#0f5132");
      await page.getByLabel("Name borrowers see").fill("Acme Home Loans");
      await page.getByRole("button", { name: "Preview branding" }).click();
      await expect(page.getByText("Preview below. Nothing is saved yet.")).toBeVisible();
      await expect(page.getByText("(preview, not saved)")).toBeVisible();
      await expect(page.getByText('"Acme Home Loans via Closing & Signing"', { exact: false })).toBeVisible();
      await expect(page.getByRole("group", { name: "Invitation email preview" })).toContainText("Acme Home Loans");
      await expectNoAxeViolations(page);

      // A file that is not an image is refused by its bytes; a PNG is stored and shown.
      await page.getByLabel("Upload a logo").setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'/>") });
      await page.getByRole("button", { name: "Upload logo" }).click();
      await expect(page.getByText(/not a PNG or JPEG image/).first()).toBeVisible();
      await page.getByLabel("Upload a logo").setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: png(120, 40) });
      await page.getByRole("button", { name: "Upload logo" }).click();
      await expect(page.getByRole("img", { name: "The current logo" })).toBeVisible();
      await page.setViewportSize({ width: 1280, height: 1400 });
      await page.screenshot({ path: testInfo.outputPath("settings-1280.png"), fullPage: true });
      await page.setViewportSize({ width: 390, height: 900 });
      await page.screenshot({ path: testInfo.outputPath("settings-390.png"), fullPage: true });
      await page.setViewportSize({ width: 1280, height: 900 });
    } finally {
      // The demo organization is shared by the other browser tests: leave it unbranded.
      await page.goto("/workspace/settings");
      const remove = page.getByRole("button", { name: "Remove logo" });
      if (await remove.isVisible()) {
        await remove.click();
        await expect(page.getByText("No logo uploaded")).toBeVisible();
      }
    }
  });
});
