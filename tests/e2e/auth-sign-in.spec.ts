import { DEMO_PASSWORD } from "@/lib/seed/seed-demo";
import { HomePage } from "./pages/home-page";
import { SignInPage } from "./pages/sign-in-page";
import { SignOutPage } from "./pages/sign-out-page";
import { expect, expectNoAxeViolations, signInAs, test } from "./support/fixtures";

const DEMO_SENT = "Retail installment contract — Sam Signer";
const DEMO_DRAFT = "Chattel loan — draft for Dallas";
const OTHER_ORG = "Bill of sale — Pat Elsewhere";

// Tests tagged @desktop run in the desktop project only, @phone in the phone project only, the rest in both.
test.describe("browser sign-in", () => {
  test("sends a visitor without a session to /sign-in and back after signing in", async ({ page }) => {
    await page.goto("/settings/api-keys");
    expect(new URL(page.url()).pathname).toBe("/sign-in");
    expect(new URL(page.url()).searchParams.get("callbackUrl")).toBe("/settings/api-keys");
    const signIn = new SignInPage(page);
    await signIn.heading.waitFor();
    await expectNoAxeViolations(page);
    await signIn.signIn("signer@demo.local", DEMO_PASSWORD, "/settings/api-keys");
    await page.getByRole("heading", { level: 1, name: "API keys" }).waitFor();
    await expectNoAxeViolations(page);
  });

  test("shows a manager both Demo Lending packages and not the other organization's", { tag: "@desktop" }, async ({ page }) => {
    const home = await signInAs(page, "manager@demo.local");
    await expect(home.currentUser).toContainText("Max Manager");
    await expect(home.managedHeading).toHaveText("Your organization's signing packages");
    const titles = await home.titles(home.managedTable);
    expect(titles).toEqual(expect.arrayContaining([DEMO_SENT, DEMO_DRAFT]));
    expect(titles).toHaveLength(2);
    expect(titles).not.toContain(OTHER_ORG);
    expect(await home.statusOf(home.managedTable, DEMO_SENT)).toBe("Sent");
    expect(await home.statusOf(home.managedTable, DEMO_DRAFT)).toBe("Draft");
    await expect(page.getByText(OTHER_ORG)).toHaveCount(0);
    await expectNoAxeViolations(page);
  });

  test("shows a signer the sent package assigned to them, and nothing they do not sign", { tag: "@desktop" }, async ({ page }) => {
    const home = await signInAs(page, "signer@demo.local");
    expect(await home.titles(home.assignedTable)).toEqual([DEMO_SENT]);
    expect(await home.statusOf(home.assignedTable, DEMO_SENT)).toBe("Sent");
    await expect(home.managedTable).toHaveCount(0);
    await expect(page.getByText(DEMO_DRAFT)).toHaveCount(0);
    await expect(page.getByText(OTHER_ORG)).toHaveCount(0);
    await expectNoAxeViolations(page);
  });

  test("shows a signer on a phone their package as a list that fits the screen", { tag: "@phone" }, async ({ page }) => {
    const home = await signInAs(page, "signer@demo.local");
    // Other journeys add packages for Sam to the run's database: look at the seeded one.
    const demoEntry = home.assignedList.getByRole("listitem").filter({ hasText: DEMO_SENT });
    await expect(demoEntry).toBeVisible();
    await expect(demoEntry.getByText("0 of 2 signed")).toBeVisible();
    // The table is in the page but not displayed (and so not in the accessibility tree).
    const hiddenTable = page.getByRole("table", { name: "Signing packages assigned to you", includeHidden: true });
    await expect(hiddenTable).toHaveCount(1);
    await expect(hiddenTable).toBeHidden();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await expectNoAxeViolations(page);
  });

  test("signs in with one click from the demo account list", async ({ page }) => {
    const signIn = await new SignInPage(page).goto();
    await expectNoAxeViolations(page);
    await Promise.all([page.waitForURL((url) => url.pathname === "/"), signIn.demoAccountButton("Sam Signer").click()]);
    await expect(new HomePage(page).currentUser).toContainText("Sam Signer");
  });

  test("announces a wrong password and stays signed out (phone viewport)", { tag: "@phone" }, async ({ page }) => {
    const signIn = await new SignInPage(page).goto();
    await signIn.fill("manager@demo.local", "not-the-password");
    await signIn.submit.click();
    await expect(signIn.alert).toContainText("incorrect");
    await expect(signIn.alert).toHaveAttribute("role", "alert");
    await expect(page.getByRole("alert").filter({ hasText: "The email or password is incorrect." })).toBeVisible();
    await expect(signIn.email).toHaveAttribute("aria-invalid", "true");
    expect(new URL(page.url()).pathname).toBe("/sign-in");
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await expectNoAxeViolations(page);
    await page.goto("/");
    expect(new URL(page.url()).pathname).toBe("/sign-in");
  });

  test("signs out after confirmation", async ({ page }) => {
    const home = await signInAs(page, "manager@demo.local");
    await home.openSignOut();
    const signOut = new SignOutPage(page);
    await signOut.heading.waitFor();
    await expectNoAxeViolations(page);
    await signOut.confirm();
    await new SignInPage(page).status.getByText("You have been signed out.").waitFor();
    await expectNoAxeViolations(page);
    const session = await page.request.get("/api/auth/session");
    expect(await session.json()).toEqual({});
    await page.goto("/");
    expect(new URL(page.url()).pathname).toBe("/sign-in");
  });
});

test.describe("sign-in without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("signs in by a POST: the password never appears in a URL", async ({ page }) => {
    const requests: { method: string; url: string }[] = [];
    page.on("request", (request) => requests.push({ method: request.method(), url: request.url() }));
    await page.goto("/sign-in?callbackUrl=%2Fsettings%2Fapi-keys");
    const signIn = new SignInPage(page);

    await signIn.fill("manager@demo.local", "not-the-password");
    await Promise.all([page.waitForLoadState("load"), signIn.submit.click()]);
    await expect(signIn.alert).toContainText("The email or password is incorrect.");
    await expect(signIn.email).toHaveValue("manager@demo.local");
    await expect(signIn.password).toHaveValue("");

    await signIn.signIn("manager@demo.local", DEMO_PASSWORD, "/settings/api-keys");
    await page.getByRole("heading", { level: 1, name: "API keys" }).waitFor();
    expect(requests.some((r) => r.method === "POST" && new URL(r.url).pathname === "/sign-in")).toBe(true);
    for (const request of requests) {
      expect(request.url).not.toContain("not-the-password");
      expect(request.url).not.toContain(encodeURIComponent(DEMO_PASSWORD));
      expect(new URL(request.url).searchParams.has("password")).toBe(false);
    }
  });
});

test.describe("sign-in return paths", () => {
  test("answers every odd callbackUrl without a 5xx and only ever returns to a same-origin path", { tag: "@desktop" }, async ({ page }) => {
    const odd = ["%", "%00", "\u0000", "/\u0000", `/${"a".repeat(6_000)}`, "/\t/evil.example", "/%09/evil.example", "javascript:alert(1)", "https://evil.example", "//evil.example", "/\\evil.example"];
    for (const value of odd) {
      const response = await page.request.get(`/sign-in?callbackUrl=${encodeURIComponent(value)}`, { maxRedirects: 0 });
      expect(response.status(), value).toBeLessThan(500);
    }
    const raw = await page.request.get("/sign-in?callbackUrl=%&x=%E0%A4%A", { maxRedirects: 0 });
    expect(raw.status()).toBeLessThan(500);

    await signInAs(page, "signer@demo.local");
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
