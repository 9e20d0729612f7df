import { ApiKeysPage } from "./pages/api-keys-page";
import { expect, expectNoAxeViolations, signInAs, test } from "./support/fixtures";

// API behaviour behind a browser-created key: the desktop project covers it once.
test.describe("personal API keys", { tag: "@desktop" }, () => {
  test("creates a key in the UI, exchanges it for a token that /v1 accepts through Next, and revokes it", async ({ page, request }) => {
    const home = await signInAs(page, "manager@demo.local");
    await home.openApiKeys();
    const keys = new ApiKeysPage(page);
    await keys.heading.waitFor();
    await expectNoAxeViolations(page);
    const apiKey = await keys.create("e2e script");
    expect(apiKey).toMatch(/^csk_[A-Za-z0-9_-]{43}$/);
    await expect(keys.keyRow("e2e script")).toContainText(apiKey.slice(0, 12));
    await expect(keys.keyRow("e2e script")).not.toContainText(apiKey);
    await expectNoAxeViolations(page);

    const exchanged = await request.post("/api/auth/token", { data: { apiKey } });
    expect(exchanged.status()).toBe(200);
    const body = (await exchanged.json()) as { token: string; tokenType: string; expiresIn: number; expiresAt: string };
    expect(body.tokenType).toBe("Bearer");
    expect(body.expiresIn).toBeGreaterThan(0);

    const session = await request.get("/v1/signing/session", { headers: { authorization: `Bearer ${body.token}` } });
    expect(session.status()).toBe(200);
    expect(session.headers()["content-type"]).toMatch(/^application\/json/);
    const json = (await session.json()) as { user: { email: string }; capabilities: string[] };
    expect(json.user.email).toBe("manager@demo.local");
    expect(json.capabilities).toContain("signings:write");

    await keys.goto();
    await keys.revoke("e2e script");
    const afterRevoke = await request.post("/api/auth/token", { data: { apiKey } });
    expect(afterRevoke.status()).toBe(401);
    expect(await afterRevoke.json()).toEqual({ error: expect.any(String) });
  });

  test("answers 400 JSON to a malformed request", async ({ request }) => {
    const response = await request.post("/api/auth/token", { headers: { "content-type": "application/json" }, data: "{not json" });
    expect(response.status()).toBe(400);
    expect(await response.json()).toEqual({ error: expect.any(String) });
  });
});
