import { createRequire } from "node:module";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { renderAgreementPdf } from "@/lib/documents/pdf";
import { DEMO_PASSWORD } from "@/lib/seed/seed-demo";
import { ApiKeysPage } from "./pages/api-keys-page";
import { DocumentsViewerPage } from "./pages/documents-viewer-page";
import { SignInPage } from "./pages/sign-in-page";
import { baseUrl, launchBrowser, newContext } from "./support/browser";

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

async function signedInAsSigner(options: { mobile?: boolean; email?: string } = {}): Promise<Page> {
  context = await newContext(browser, options);
  const page = await context.newPage();
  await (await new SignInPage(page).goto()).signIn(options.email ?? "signer@demo.local", DEMO_PASSWORD);
  if (options.email) return page;
  packageId ??= (await page
    .locator("[data-testid^=assigned-signings] [data-signing-id]")
    .filter({ hasText: "Retail installment contract — Sam Signer" })
    .first()
    .getAttribute("data-signing-id"))!;
  return page;
}

const LONG_PACKAGE_MANAGER = "manager@other.local";
const LONG_PACKAGE_SIGNER = "cosigner@demo.local";

const AXE_PATH = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

type AxeViolation = { id: string; impact: string | null; nodes: { target: string[] }[] };

async function seriousAxeViolations(page: Page): Promise<AxeViolation[]> {
  await page.addScriptTag({ path: AXE_PATH });
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document) => Promise<{ violations: AxeViolation[] }> } }).axe;
    return (await axe.run(document)).violations;
  });
  return violations.filter((v) => v.impact === "serious" || v.impact === "critical");
}

/**
 * As the other organization's manager, through the UI (API key) and /v1: a sent package for
 * cosigner@demo.local with a `pages`-page PDF and a one-page "Bill of sale.pdf". Neither the demo
 * manager nor signer@demo.local, whose lists other browser tests check, can see it.
 */
async function sendLongPackage(pages: number): Promise<string> {
  context = await newContext(browser);
  const page = await context.newPage();
  await (await new SignInPage(page).goto()).signIn(LONG_PACKAGE_MANAGER, DEMO_PASSWORD);
  const apiKey = await (await new ApiKeysPage(page).goto()).create(`viewer e2e ${Date.now()}`);
  await context.close();
  const exchanged = await fetch(`${baseUrl()}/api/auth/token`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ apiKey }) });
  const { token } = (await exchanged.json()) as { token: string };
  const api = async (path: string, body?: unknown) => {
    const res = await fetch(`${baseUrl()}/v1/signing/manager${path}`, {
      method: body === undefined ? "GET" : "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
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

  let longId: string;

  it("virtualises a 20-page document: full scroll height at once, canvases only around the page being read", async () => {
    longId = await sendLongPackage(20);
    const page = await signedInAsSigner({ email: LONG_PACKAGE_SIGNER });
    const viewer = await new DocumentsViewerPage(page).goto(longId);
    await viewer.counter(1, 20).waitFor();
    await expect(page.getByRole("group", { name: /^Page \d+ of 20$/ }).count()).resolves.toBe(20);
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

  it("has no serious or critical axe-core violation with the document open, on a desktop and a phone", async () => {
    for (const mobile of [false, true]) {
      const page = await signedInAsSigner({ mobile });
      await new DocumentsViewerPage(page).goto(packageId);
      await page.getByRole("group", { name: "Page 1 of 2" }).getByText("Retail Installment Contract and Security Agreement").waitFor();
      expect(await seriousAxeViolations(page)).toEqual([]);
      await context.close();
    }
  });

  it("shows several documents as tabs with their status, switched by click or arrow keys", async () => {
    longId ??= await sendLongPackage(20);
    const page = await signedInAsSigner({ email: LONG_PACKAGE_SIGNER });
    const viewer = await new DocumentsViewerPage(page).goto(longId);
    const tabs = page.getByRole("tablist", { name: "Documents in this package" }).getByRole("tab");
    await expect(tabs.allTextContents()).resolves.toEqual(["Long agreement.pdfTo sign", "Bill of sale.pdfTo sign"]);
    const first = tabs.nth(0);
    expect(await first.getAttribute("aria-selected")).toBe("true");
    await first.focus();
    await page.keyboard.press("ArrowRight");
    expect(await tabs.nth(1).getAttribute("aria-selected")).toBe("true");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Bill of sale.pdfTo sign");
    await viewer.counter(1, 1).waitFor();
    await viewer.status.filter({ hasText: "Bill of sale.pdf loaded, 1 page." }).waitFor();
    expect(await viewer.download.getAttribute("href")).toMatch(/\/file\?download=1$/);
    await expect(viewer.download.textContent()).resolves.toBe("Download\u00a0Bill of sale.pdf");
    await tabs.nth(0).click();
    await viewer.counter(1, 20).waitFor();
    await new DocumentsViewerPage(page).firstPagePainted();
  });
});
