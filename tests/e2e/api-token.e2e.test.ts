import type { Browser, BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_PASSWORD } from "@/lib/seed/seed-demo";
import { ApiKeysPage } from "./pages/api-keys-page";
import { HomePage } from "./pages/home-page";
import { SignInPage } from "./pages/sign-in-page";
import { baseUrl, launchBrowser, newContext } from "./support/browser";

let browser: Browser;
let context: BrowserContext;

beforeAll(async () => {
  browser = await launchBrowser();
  context = await newContext(browser);
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
});

async function exchange(apiKey: string): Promise<Response> {
  return fetch(`${baseUrl()}/api/auth/token`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ apiKey }),
  });
}

describe("personal API keys", () => {
  it("creates a key in the UI, exchanges it for a token that /v1 accepts through Next, and revokes it", async () => {
    const page = await context.newPage();
    await (await new SignInPage(page).goto()).signIn("manager@demo.local", DEMO_PASSWORD);
    await new HomePage(page).openApiKeys();
    const keys = new ApiKeysPage(page);
    const apiKey = await keys.create("e2e script");
    expect(apiKey).toMatch(/^csk_[A-Za-z0-9_-]{43}$/);
    expect(await keys.keyRow("e2e script").textContent()).toContain(apiKey.slice(0, 12));
    expect(await keys.keyRow("e2e script").textContent()).not.toContain(apiKey);

    const exchanged = await exchange(apiKey);
    expect(exchanged.status).toBe(200);
    const body = (await exchanged.json()) as { token: string; tokenType: string; expiresIn: number; expiresAt: string };
    expect(body.tokenType).toBe("Bearer");
    expect(body.expiresIn).toBeGreaterThan(0);

    const session = await fetch(`${baseUrl()}/v1/signing/session`, { headers: { authorization: `Bearer ${body.token}` } });
    expect(session.status).toBe(200);
    expect(session.headers.get("content-type")).toMatch(/^application\/json/);
    const json = (await session.json()) as { user: { email: string }; capabilities: string[] };
    expect(json.user.email).toBe("manager@demo.local");
    expect(json.capabilities).toContain("signings:write");

    await keys.goto();
    await keys.revoke("e2e script");
    const afterRevoke = await exchange(apiKey);
    expect(afterRevoke.status).toBe(401);
    expect(await afterRevoke.json()).toEqual({ error: expect.any(String) });
  });

  it("answers 400 JSON to a malformed request", async () => {
    const response = await fetch(`${baseUrl()}/api/auth/token`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{not json",
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: expect.any(String) });
  });
});
