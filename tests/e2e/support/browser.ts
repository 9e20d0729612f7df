import { chromium, type Browser, type BrowserContext } from "playwright-core";

/** Debian's Chromium: Playwright's own browser download is not available here. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export function baseUrl(): string {
  const url = process.env.E2E_BASE_URL;
  if (!url) throw new Error("E2E_BASE_URL is not set: run the browser tests through `npm run test:e2e`.");
  return url.replace(/\/$/, "");
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run"],
  });
}

export async function newContext(browser: Browser, options: { mobile?: boolean; javaScript?: boolean } = {}): Promise<BrowserContext> {
  const context = await browser.newContext({
    baseURL: baseUrl(),
    javaScriptEnabled: options.javaScript ?? true,
    ...(options.mobile ? { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } : {}),
  });
  context.setDefaultTimeout(15_000);
  return context;
}
