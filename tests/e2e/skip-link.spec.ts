import { expect, expectNoAxeViolations, signInAs, test } from "./support/fixtures";

// Every page starts with "Skip to content". Focused (the first Tab, or focus coming back to the top of
// the page, as after a bank provider's window closes), it shows as a full-size target above the header
// instead of on top of its links, and it moves the reader to the page's main content.
test("the skip link, once focused, is a full target that covers nothing, and leads to the main content", { tag: "@desktop" }, async ({ page }) => {
  await signInAs(page, "signer@demo.local");
  await page.goto("/");
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to content" });
  await expect(skip).toBeFocused();
  const box = (await skip.boundingBox())!;
  expect(box.height).toBeGreaterThanOrEqual(24);
  // Above the header's first link, not over it.
  const brand = (await page.getByRole("banner").getByRole("link").first().boundingBox())!;
  expect(box.y + box.height).toBeLessThanOrEqual(brand.y);
  await expectNoAxeViolations(page);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/#main$/);
});
