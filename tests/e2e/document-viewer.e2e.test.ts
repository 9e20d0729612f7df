import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DEMO_PASSWORD } from "@/lib/seed/seed-demo";
import { DocumentsViewerPage } from "./pages/documents-viewer-page";
import { SignInPage } from "./pages/sign-in-page";
import { launchBrowser, newContext } from "./support/browser";

let browser: Browser;
let context: BrowserContext;
let packageId: string;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});
afterEach(async () => {
  await context?.close();
});

async function signedInAsSigner(options: { mobile?: boolean } = {}): Promise<Page> {
  context = await newContext(browser, options);
  const page = await context.newPage();
  await (await new SignInPage(page).goto()).signIn("signer@demo.local", DEMO_PASSWORD);
  packageId ??= (await page.locator("[data-testid^=assigned-signings] [data-signing-id]").first().getAttribute("data-signing-id"))!;
  return page;
}

describe("the signer's documents viewer", () => {
  it("paints the demo document with a selectable text layer, page count, announcement and download of the original", async () => {
    const page = await signedInAsSigner();
    const viewer = await new DocumentsViewerPage(page).goto(packageId);
    await viewer.counter(1, 2).waitFor();
    await expect(viewer.pageGroup(2, 2).count()).resolves.toBe(1);
    await viewer.status.filter({ hasText: "Retail Installment Contract.pdf loaded, 2 pages." }).waitFor();
    const heading = viewer.pageGroup(1, 2).getByText("Retail Installment Contract and Security Agreement");
    await heading.waitFor();
    expect(await heading.evaluate((el) => getComputedStyle(el).userSelect)).not.toBe("none");
    expect(await page.locator("canvas").count()).toBeGreaterThanOrEqual(1);

    const href = await viewer.download.getAttribute("href");
    expect(href).toBe(`/signings/${packageId}/documents/${href!.split("/")[4]}/file?download=1`);
    const response = await page.request.get(href!);
    expect(response.status()).toBe(200);
    expect(response.headers()["content-disposition"]).toMatch(/^attachment; filename="Retail Installment Contract\.pdf"/);
    expect((await response.body()).subarray(0, 5).toString("latin1")).toBe("%PDF-");
  });

  it("zooms in and out with named buttons, back to fit width, and jumps to a page", async () => {
    const page = await signedInAsSigner();
    const viewer = await new DocumentsViewerPage(page).goto(packageId);
    const width = () => viewer.pageGroup(1, 2).evaluate((el) => el.getBoundingClientRect().width);
    const fit = await width();
    const fitLabel = await viewer.zoomLevel.textContent();
    await viewer.zoomIn.click();
    await expect.poll(width).toBeGreaterThan(fit + 10);
    expect(await viewer.zoomLevel.textContent()).not.toBe(fitLabel);
    expect(await viewer.fitWidth.getAttribute("aria-pressed")).toBe("false");
    await viewer.zoomOut.click();
    await viewer.zoomOut.click();
    await expect.poll(width).toBeLessThan(fit - 10);
    await viewer.fitWidth.click();
    await expect.poll(width).toBeCloseTo(fit, 0);

    await viewer.jumpTo("2");
    await viewer.counter(2, 2).waitFor();
    await viewer.jumpTo("9");
    await page.getByText("Enter a page number from 1 to 2.").waitFor();
    expect(await viewer.jumpInput.getAttribute("aria-invalid")).toBe("true");
  });

  it("fits a 390 px phone without horizontal scroll", async () => {
    const page = await signedInAsSigner({ mobile: true });
    await new DocumentsViewerPage(page).goto(packageId);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    const pageWidth = await page.getByRole("group", { name: "Page 1 of 2" }).evaluate((el) => el.getBoundingClientRect().width);
    expect(pageWidth).toBeGreaterThan(300);
    expect(pageWidth).toBeLessThanOrEqual(390);
  });

  it("says in a sentence when the file cannot be loaded, and offers a retry and the download", async () => {
    const page = await signedInAsSigner();
    const file = /\/documents\/[^/]+\/file$/;
    await page.route(file, (route) => route.fulfill({ status: 500, body: "broken" }));
    await page.goto(`/signings/${packageId}`);
    const alert = page.getByRole("alert").filter({ hasText: "could not be loaded" });
    await alert.waitFor();
    expect(await alert.textContent()).toContain("Retail Installment Contract.pdf could not be loaded. Check your connection and try again");
    await page.unroute(file);
    await alert.getByRole("button", { name: "Try again" }).click();
    await new DocumentsViewerPage(page).firstPagePainted();
    expect(await alert.count()).toBe(0);
  });
});
