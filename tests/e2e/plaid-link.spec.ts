import type { Page } from "@playwright/test";
import type { FakePlaid } from "../fakes/plaid/server";
import { PLAID_LINK_SCRIPT_URL } from "./support/plaid-link";
import { expect, test } from "./support/fixtures";

/**
 * The fake Plaid Link (tests/fakes/plaid-link/) on its own, before the bank step exists: a bare page
 * served by Playwright loads Plaid's script address, which the `plaidLink` fixture routes to the fake,
 * and drives `Plaid.create(...).open()` the way react-plaid-link does.
 */
const HARNESS_URL = "https://bank-step.harness.test/";
const HARNESS = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Plaid Link harness</title>
<script src="${PLAID_LINK_SCRIPT_URL}"></script></head>
<body><main><h1>Plaid Link harness</h1></main>
<script>
  window.calls = [];
  window.startLink = function (token) {
    window.handler = window.Plaid.create({
      token: token,
      onLoad: function () { window.calls.push({ name: "onLoad" }); },
      onSuccess: function (publicToken, metadata) { window.calls.push({ name: "onSuccess", publicToken: publicToken, metadata: metadata }); },
      onExit: function (error, metadata) { window.calls.push({ name: "onExit", error: error, metadata: metadata }); },
      onEvent: function (eventName, metadata) { window.calls.push({ name: "onEvent", eventName: eventName, metadata: metadata }); },
    });
  };
</script></body></html>`;

type Call = { name: string; eventName?: string; publicToken?: string; metadata?: Record<string, unknown>; error?: Record<string, unknown> | null };

async function openHarness(page: Page): Promise<void> {
  await page.route(HARNESS_URL, (route) => route.fulfill({ contentType: "text/html; charset=utf-8", body: HARNESS }));
  await page.goto(HARNESS_URL);
  await expect(page.getByRole("heading", { name: "Plaid Link harness" })).toBeVisible();
}

async function createLinkToken(plaid: FakePlaid): Promise<string> {
  const response = await fetch(`${plaid.url}/link/token/create`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ client_id: plaid.clientId, secret: plaid.secret, user: { client_user_id: "user-1" }, products: ["auth"] }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { link_token: string }).link_token;
}

async function openLink(page: Page, token: string): Promise<Call[]> {
  await page.evaluate((t) => {
    (window as unknown as { startLink: (t: string) => void }).startLink(t);
  }, token);
  // react-plaid-link opens only once onLoad has fired.
  await expect.poll(() => page.evaluate(() => (window as unknown as { calls: Call[] }).calls.map((c) => c.name))).toContain("onLoad");
  await page.evaluate(() => (window as unknown as { handler: { open: () => void } }).handler.open());
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { calls: Call[] }).calls.some((c) => c.name === "onSuccess" || c.name === "onExit")))
    .toBe(true);
  return page.evaluate(() => (window as unknown as { calls: Call[] }).calls);
}

function names(calls: Call[]): string[] {
  return calls.map((c) => (c.name === "onEvent" ? `event:${c.eventName}` : c.name));
}

test.describe("fake Plaid Link", () => {
  test("the page loads the routed script and open() ends in onSuccess with a public_token the fake Plaid server exchanges", async ({
    page,
    fakePlaid,
    plaidLink,
  }) => {
    const scriptRequests: string[] = [];
    page.on("request", (request) => {
      if (request.url().startsWith("https://cdn.plaid.com/")) scriptRequests.push(request.url());
    });
    await openHarness(page);
    expect(scriptRequests).toEqual([PLAID_LINK_SCRIPT_URL]);
    expect(await page.evaluate(() => typeof (window as unknown as { Plaid?: { create?: unknown } }).Plaid?.create)).toBe("function");

    const linkToken = await createLinkToken(fakePlaid);
    const calls = await openLink(page, linkToken);
    expect(names(calls)).toEqual(["onLoad", "event:OPEN", "event:SELECT_INSTITUTION", "event:HANDOFF", "onSuccess"]);
    const success = calls.at(-1)!;
    expect(success.publicToken).toMatch(/^public-sandbox-/);
    expect(success.metadata).toMatchObject({
      institution: { name: "First Platypus Bank", institution_id: "ins_109508" },
      public_token: success.publicToken,
      accounts: [expect.objectContaining({ type: "depository", subtype: "checking" })],
    });
    expect(plaidLink.opens).toHaveLength(1);
    expect(plaidLink.opens[0]!.linkToken).toBe(linkToken);

    // The token is the fake server's own: it exchanges once.
    const exchange = () =>
      fetch(`${fakePlaid.url}/item/public_token/exchange`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ client_id: fakePlaid.clientId, secret: fakePlaid.secret, public_token: success.publicToken }),
      });
    const first = await exchange();
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({ access_token: expect.stringMatching(/^access-sandbox-/), item_id: expect.any(String) });
    expect((await exchange()).status).toBe(400);
  });

  test("links the institution the test chose", async ({ page, fakePlaid, plaidLink }) => {
    plaidLink.setBehaviour({ kind: "success", institutionId: "ins_109511" });
    await openHarness(page);
    const calls = await openLink(page, await createLinkToken(fakePlaid));
    expect(calls.at(-1)).toMatchObject({ name: "onSuccess", metadata: { institution: { name: "Tartan Bank", institution_id: "ins_109511" } } });
    const item = fakePlaid.requests.find((r) => r.path === "/sandbox/public_token/create");
    expect(item?.body.institution_id).toBe("ins_109511");
  });

  test("a person who closes Link gets onExit without an error and no public token is issued", async ({ page, fakePlaid, plaidLink }) => {
    plaidLink.setBehaviour({ kind: "exit" });
    await openHarness(page);
    const calls = await openLink(page, await createLinkToken(fakePlaid));
    expect(names(calls)).toEqual(["onLoad", "event:OPEN", "event:EXIT", "onExit"]);
    expect(calls.at(-1)).toMatchObject({ name: "onExit", error: null, metadata: { status: "institution_not_found" } });
    expect(fakePlaid.requests.map((r) => r.path)).not.toContain("/sandbox/public_token/create");
  });

  test("an expired link token ends in onExit with INVALID_LINK_TOKEN, and a fresh one works (retry)", async ({ page, fakePlaid, plaidLink }) => {
    const expired = await createLinkToken(fakePlaid);
    fakePlaid.advance(4 * 3600_000 + 1);
    await openHarness(page);
    const calls = await openLink(page, expired);
    expect(names(calls)).toEqual(["onLoad", "event:OPEN", "event:ERROR", "event:EXIT", "onExit"]);
    expect(calls.at(-1)).toMatchObject({ name: "onExit", error: { error_type: "INVALID_INPUT", error_code: "INVALID_LINK_TOKEN" } });

    await page.evaluate(() => {
      (window as unknown as { calls: Call[] }).calls = [];
    });
    const retried = await openLink(page, await createLinkToken(fakePlaid));
    expect(retried.at(-1)).toMatchObject({ name: "onSuccess", publicToken: expect.stringMatching(/^public-sandbox-/) });
    expect(plaidLink.opens.map((o) => o.outcome.kind)).toEqual(["exit", "success"]);
  });

  test("an unknown link token is refused the same way", async ({ page, plaidLink }) => {
    await openHarness(page);
    const calls = await openLink(page, "link-sandbox-not-issued-by-the-fake");
    expect(calls.at(-1)).toMatchObject({ name: "onExit", error: { error_code: "INVALID_LINK_TOKEN" } });
    expect(plaidLink.opens.map((o) => o.outcome.kind)).toEqual(["exit"]);
  });

  test("exit() closes an open Link with one onExit, and the answer that arrives later is dropped", async ({ page, fakePlaid, plaidLink }) => {
    await openHarness(page);
    await page.evaluate((t) => (window as unknown as { startLink: (t: string) => void }).startLink(t), await createLinkToken(fakePlaid));
    const result = await page.evaluate(async () => {
      const w = window as unknown as { handler: { open: () => void; exit: () => void; destroy: () => void }; calls: Call[] };
      w.handler.open();
      w.handler.exit();
      const afterExit = w.calls.map((c) => c.name);
      await new Promise((r) => setTimeout(r, 300));
      return { afterExit, later: w.calls.map((c) => c.name) };
    });
    expect(result.afterExit.filter((n) => n === "onExit")).toHaveLength(1);
    // The test process's answer to that open() arrived after the exit and was dropped.
    expect(result.later).not.toContain("onSuccess");
    await expect.poll(() => plaidLink.opens.length).toBe(1);
  });
});
