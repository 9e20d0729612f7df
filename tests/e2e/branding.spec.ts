import { deflateSync } from "node:zlib";
import { expect, expectNoAxeViolations, signInAs, test } from "./support/fixtures";

/** A real PNG (grey, `width` × `height`) without any image library. */
function png(width: number, height: number): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc32 = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const b of bytes) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  const raw = Buffer.alloc((width + 1) * height, 0x40);
  for (let y = 0; y < height; y++) raw[y * (width + 1)] = 0;
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk("IHDR", ihdr), chunk("IDAT", deflateSync(raw)), chunk("IEND", Buffer.alloc(0))]);
}

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
