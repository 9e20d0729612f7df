import type { Page } from "@playwright/test";
import { renderAgreementPdf } from "@/lib/pdf/pdf";
import { ApiKeysPage } from "./pages/api-keys-page";
import { DocumentsViewerPage } from "./pages/documents-viewer-page";
import { expect, expectNoAxeViolations, signInAs, test } from "./support/fixtures";

// The documents viewer (components/pdf-viewer) on the signer's package page. The demo package is only
// read here (never signed); the 20-page package belongs to the other organization, so the lists other
// files count do not change.

const DEMO_TITLE = "Retail installment contract — Sam Signer";
const LONG_PACKAGE_MANAGER = "manager@other.local";
const LONG_PACKAGE_SIGNER = "cosigner@demo.local";

/** Signs in as the demo signer and returns the demo package's id, from its entry on home. */
async function signedInAsSigner(page: Page): Promise<string> {
  await signInAs(page, "signer@demo.local");
  const id = await page.locator("[data-signing-id]").filter({ hasText: DEMO_TITLE }).first().getAttribute("data-signing-id");
  if (!id) throw new Error("home does not list the demo package");
  return id;
}

/**
 * As the other organization's manager, through the UI (API key) and /v1: a sent package for
 * cosigner@demo.local with a `pages`-page PDF and a one-page "Bill of sale.pdf". Neither the demo
 * manager nor signer@demo.local, whose lists other browser tests check, can see it. Leaves the page signed out.
 */
async function sendLongPackage(page: Page, pages: number): Promise<string> {
  await signInAs(page, LONG_PACKAGE_MANAGER);
  const apiKey = await (await new ApiKeysPage(page).goto()).create(`viewer e2e ${Date.now()}`);
  await page.context().clearCookies();
  const exchanged = await page.request.post("/api/auth/token", { data: { apiKey } });
  const { token } = (await exchanged.json()) as { token: string };
  const api = async (path: string, body?: unknown) => {
    const url = `/v1/signing/manager${path}`;
    const headers = { authorization: `Bearer ${token}` };
    const res = body === undefined ? await page.request.get(url, { headers }) : await page.request.post(url, { headers, data: body });
    if (!res.ok()) throw new Error(`${path}: ${res.status()} ${await res.text()}`);
    return (await res.json()) as { id: string; data: { id: number; name: string }[] };
  };
  const locations = await api("/locations");
  const tulsa = locations.data.find((l) => l.name === "Tulsa Office")!;
  const pdf = await renderAgreementPdf({ title: `Long agreement ${pages} pages`, parties: ["Buyer: Sam Signer"], pages });
  const bill = await renderAgreementPdf({ title: "Bill of sale", parties: ["Buyer: Sam Signer"], pages: 1 });
  const created = await api("/signings", {
    locationId: tulsa.id,
    title: `Viewer e2e — ${pages} pages`,
    signers: [{ name: "Casey Cosigner", email: LONG_PACKAGE_SIGNER }],
    documents: [
      { name: "Long agreement.pdf", contentBase64: Buffer.from(pdf).toString("base64") },
      { name: "Bill of sale.pdf", contentBase64: Buffer.from(bill).toString("base64") },
    ],
  });
  await api(`/signings/${created.id}/send`, {});
  return created.id;
}

let longId: string | undefined;

test.describe("the signer's documents viewer", () => {
  test("paints the demo document with a selectable text layer, page count, announcement and download of the original", { tag: "@desktop" }, async ({ page }) => {
    const packageId = await signedInAsSigner(page);
    const viewer = await new DocumentsViewerPage(page).goto(packageId);
    await viewer.counter(1, 2).waitFor();
    expect(await viewer.pageGroup(2, 2).count()).toBe(1);
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

  test("zooms in and out with named buttons, back to fit width, and jumps to a page", { tag: "@desktop" }, async ({ page }) => {
    const packageId = await signedInAsSigner(page);
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

  test("fits a 390 px phone without horizontal scroll", { tag: "@phone" }, async ({ page }) => {
    const packageId = await signedInAsSigner(page);
    await new DocumentsViewerPage(page).goto(packageId);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    const pageWidth = await page.getByRole("group", { name: "Page 1 of 2" }).evaluate((el) => el.getBoundingClientRect().width);
    expect(pageWidth).toBeGreaterThan(300);
    expect(pageWidth).toBeLessThanOrEqual(390);
  });

  test("says in a sentence when the file cannot be loaded, and offers a retry and the download", { tag: "@desktop" }, async ({ page }) => {
    const packageId = await signedInAsSigner(page);
    const file = /\/documents\/[^/]+\/file$/;
    await page.route(file, (route) => route.fulfill({ status: 500, body: "broken" }));
    await page.goto(`/signings/${packageId}`);
    const alert = page.getByRole("alert").filter({ hasText: "could not be loaded" });
    await alert.waitFor();
    expect(await alert.textContent()).toContain("Retail Installment Contract.pdf could not be loaded. Check your connection and try again");
    await expectNoAxeViolations(page);
    await page.unroute(file);
    await alert.getByRole("button", { name: "Try again" }).click();
    await new DocumentsViewerPage(page).firstPagePainted();
    expect(await alert.count()).toBe(0);
  });

  test("virtualises a 20-page document: full scroll height at once, canvases only around the page being read", { tag: "@desktop" }, async ({ page }) => {
    longId = await sendLongPackage(page, 20);
    await signInAs(page, LONG_PACKAGE_SIGNER);
    const viewer = await new DocumentsViewerPage(page).goto(longId);
    await viewer.counter(1, 20).waitFor();
    expect(await page.getByRole("group", { name: /^Page \d+ of 20$/ }).count()).toBe(20);
    const first = await viewer.pageGroup(1, 20).evaluate((el) => el.getBoundingClientRect().height);
    const scrollHeight = await viewer.pages.evaluate((el) => el.scrollHeight);
    expect(scrollHeight).toBeGreaterThan(first * 20);
    const canvases = () => page.locator("[data-page-number]:has(canvas)").evaluateAll((els) => els.map((el) => Number((el as HTMLElement).dataset.pageNumber)));
    await expect.poll(canvases).toEqual([1, 2, 3]);

    await viewer.jumpTo("15");
    await viewer.counter(15, 20).waitFor();
    await expect.poll(canvases).toEqual([13, 14, 15, 16, 17]);
    await viewer.pageGroup(15, 20).getByText("Page 15 of 20").waitFor();

    const width = () => viewer.pageGroup(15, 20).evaluate((el) => el.getBoundingClientRect().width);
    const before = await width();
    await viewer.pages.hover();
    await page.keyboard.down("Control");
    await page.mouse.wheel(0, -200);
    await page.keyboard.up("Control");
    await expect.poll(width).toBeGreaterThan(before * 1.2);
    await viewer.counter(15, 20).waitFor();
  });

  // Both projects: the desktop and the phone layout.
  test("has no serious or critical axe-core violation with the document open", async ({ page }) => {
    const packageId = await signedInAsSigner(page);
    await new DocumentsViewerPage(page).goto(packageId);
    await page.getByRole("group", { name: "Page 1 of 2" }).getByText("Retail Installment Contract and Security Agreement").waitFor();
    await expectNoAxeViolations(page);
  });

  test("shows several documents as tabs with their status, switched by click or arrow keys", { tag: "@desktop" }, async ({ page }) => {
    longId ??= await sendLongPackage(page, 20);
    await signInAs(page, LONG_PACKAGE_SIGNER);
    const viewer = await new DocumentsViewerPage(page).goto(longId);
    const tabs = page.getByRole("tablist", { name: "Documents in this package" }).getByRole("tab");
    expect(await tabs.allTextContents()).toEqual(["Long agreement.pdfTo sign", "Bill of sale.pdfTo sign"]);
    const first = tabs.nth(0);
    expect(await first.getAttribute("aria-selected")).toBe("true");
    await first.focus();
    await page.keyboard.press("ArrowRight");
    expect(await tabs.nth(1).getAttribute("aria-selected")).toBe("true");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Bill of sale.pdfTo sign");
    await viewer.counter(1, 1).waitFor();
    await viewer.status.filter({ hasText: "Bill of sale.pdf loaded, 1 page." }).waitFor();
    expect(await viewer.download.getAttribute("href")).toMatch(/\/file\?download=1$/);
    expect(await viewer.download.textContent()).toBe("Download\u00a0Bill of sale.pdf");
    await expectNoAxeViolations(page);
    await tabs.nth(0).click();
    await viewer.counter(1, 20).waitFor();
    await new DocumentsViewerPage(page).firstPagePainted();
  });
});
