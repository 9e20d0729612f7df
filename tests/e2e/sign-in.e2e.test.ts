import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEMO_PASSWORD } from "@/lib/seed/seed-demo";
import { HomePage } from "./pages/home-page";
import { SignInPage } from "./pages/sign-in-page";
import { SignOutPage } from "./pages/sign-out-page";
import { launchBrowser, newContext } from "./support/browser";

const DEMO_SENT = "Retail installment contract — Sam Signer";
const DEMO_DRAFT = "Chattel loan — draft for Dallas";
const OTHER_ORG = "Bill of sale — Pat Elsewhere";

let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});
beforeEach(async () => {
  context = await newContext(browser);
  page = await context.newPage();
});
afterEach(async () => {
  await context?.close();
});

describe("browser sign-in", () => {
  it("sends a visitor without a session to /sign-in and back after signing in", async () => {
    await page.goto("/settings/api-keys");
    expect(new URL(page.url()).pathname).toBe("/sign-in");
    expect(new URL(page.url()).searchParams.get("callbackUrl")).toBe("/settings/api-keys");
    await new SignInPage(page).signIn("signer@demo.local", DEMO_PASSWORD, "/settings/api-keys");
    await page.getByRole("heading", { level: 1, name: "API keys" }).waitFor();
  });

  it("shows a manager both Demo Lending packages and not the other organization's", async () => {
    await (await new SignInPage(page).goto()).signIn("manager@demo.local", DEMO_PASSWORD);
    const home = new HomePage(page);
    await expect(home.currentUser.textContent()).resolves.toContain("Max Manager");
    await expect(home.managedHeading.textContent()).resolves.toBe("Your organization's signing packages");
    const titles = await home.titles(home.managedTable);
    expect(titles).toEqual(expect.arrayContaining([DEMO_SENT, DEMO_DRAFT]));
    expect(titles).toHaveLength(2);
    expect(titles).not.toContain(OTHER_ORG);
    expect(await home.statusOf(home.managedTable, DEMO_SENT)).toBe("Sent");
    expect(await home.statusOf(home.managedTable, DEMO_DRAFT)).toBe("Draft");
    expect(await page.getByText(OTHER_ORG).count()).toBe(0);
  });

  it("shows a signer the sent package assigned to them, and nothing they do not sign", async () => {
    await (await new SignInPage(page).goto()).signIn("signer@demo.local", DEMO_PASSWORD);
    const home = new HomePage(page);
    expect(await home.titles(home.assignedTable)).toEqual([DEMO_SENT]);
    expect(await home.statusOf(home.assignedTable, DEMO_SENT)).toBe("Sent");
    expect(await home.managedTable.count()).toBe(0);
    expect(await page.getByText(DEMO_DRAFT).count()).toBe(0);
    expect(await page.getByText(OTHER_ORG).count()).toBe(0);
  });

  it("shows a signer on a phone their package as a list that fits the screen", async () => {
    await context.close();
    context = await newContext(browser, { mobile: true });
    page = await context.newPage();
    await (await new SignInPage(page).goto()).signIn("signer@demo.local", DEMO_PASSWORD);
    const list = page.getByTestId("assigned-signings-list");
    await expect(list.getByText(DEMO_SENT).isVisible()).resolves.toBe(true);
    await expect(list.getByText("0 of 2 signed").isVisible()).resolves.toBe(true);
    await expect(page.getByTestId("assigned-signings").isVisible()).resolves.toBe(false);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });

  it("signs in with one click from the demo account list", async () => {
    const signIn = await new SignInPage(page).goto();
    await Promise.all([page.waitForURL((url) => url.pathname === "/"), signIn.demoAccountButton("Sam Signer").click()]);
    await expect(new HomePage(page).currentUser.textContent()).resolves.toContain("Sam Signer");
  });

  it("announces a wrong password and stays signed out (phone viewport)", async () => {
    await context.close();
    context = await newContext(browser, { mobile: true });
    page = await context.newPage();
    const signIn = await new SignInPage(page).goto();
    await signIn.fill("manager@demo.local", "not-the-password");
    await signIn.submit.click();
    await page.waitForFunction(() => document.querySelector("#sign-in-error")?.textContent?.includes("incorrect"));
    expect(await signIn.alert.getAttribute("role")).toBe("alert");
    expect(await signIn.email.getAttribute("aria-invalid")).toBe("true");
    expect(new URL(page.url()).pathname).toBe("/sign-in");
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.goto("/");
    expect(new URL(page.url()).pathname).toBe("/sign-in");
  });

  it("signs out after confirmation", async () => {
    await (await new SignInPage(page).goto()).signIn("manager@demo.local", DEMO_PASSWORD);
    const home = new HomePage(page);
    await home.openSignOut();
    await new SignOutPage(page).confirm();
    await new SignInPage(page).status.getByText("You have been signed out.").waitFor();
    const session = await page.request.get("/api/auth/session");
    expect(await session.json()).toEqual({});
    await page.goto("/");
    expect(new URL(page.url()).pathname).toBe("/sign-in");
  });

  it("signs in without JavaScript by a POST: the password never appears in a URL", async () => {
    await context.close();
    context = await newContext(browser, { javaScript: false });
    page = await context.newPage();
    const requests: { method: string; url: string }[] = [];
    page.on("request", (request) => requests.push({ method: request.method(), url: request.url() }));
    await page.goto("/sign-in?callbackUrl=%2Fsettings%2Fapi-keys");
    const signIn = new SignInPage(page);

    await signIn.fill("manager@demo.local", "not-the-password");
    await Promise.all([page.waitForLoadState("load"), signIn.submit.click()]);
    await signIn.alert.getByText("The email or password is incorrect.").waitFor();
    expect(await signIn.email.inputValue()).toBe("manager@demo.local");
    expect(await signIn.password.inputValue()).toBe("");

    await signIn.signIn("manager@demo.local", DEMO_PASSWORD, "/settings/api-keys");
    await page.getByRole("heading", { level: 1, name: "API keys" }).waitFor();
    expect(requests.some((r) => r.method === "POST" && new URL(r.url).pathname === "/sign-in")).toBe(true);
    for (const request of requests) {
      expect(request.url).not.toContain("not-the-password");
      expect(request.url).not.toContain(encodeURIComponent(DEMO_PASSWORD));
      expect(new URL(request.url).searchParams.has("password")).toBe(false);
    }
  });

  it("answers every odd callbackUrl without a 5xx and only ever returns to a same-origin path", async () => {
    const odd = ["%", "%00", "\u0000", "/\u0000", `/${"a".repeat(6_000)}`, "/\t/evil.example", "/%09/evil.example", "javascript:alert(1)", "https://evil.example", "//evil.example", "/\\evil.example"];
    for (const value of odd) {
      const response = await page.request.get(`/sign-in?callbackUrl=${encodeURIComponent(value)}`, { maxRedirects: 0 });
      expect(response.status(), value).toBeLessThan(500);
    }
    const raw = await page.request.get("/sign-in?callbackUrl=%&x=%E0%A4%A", { maxRedirects: 0 });
    expect(raw.status()).toBeLessThan(500);

    await (await new SignInPage(page).goto()).signIn("signer@demo.local", DEMO_PASSWORD);
    const cases: [string, string][] = [
      ["/\t/evil.example", "/"],
      ["/\\evil.example", "/"],
      ["https://evil.example/", "/"],
      ["javascript:alert(1)", "/"],
      ["/settings/api-keys?tab=1", "/settings/api-keys?tab=1"],
    ];
    for (const [value, location] of cases) {
      const response = await page.request.get(`/sign-in?callbackUrl=${encodeURIComponent(value)}`, { maxRedirects: 0 });
      expect(response.status(), value).toBeGreaterThanOrEqual(300);
      expect(response.status(), value).toBeLessThan(400);
      expect(response.headers()["location"], value).toBe(location);
    }
  });
});
