import { randomBytes } from "node:crypto";
import type { Page, TestInfo } from "@playwright/test";
import { startFakePlaid, type FakePlaid } from "../fakes/plaid/server";
import { BankStepPage, demoPackageSigningId } from "./pages/bank-step-page";
import { startNextServer, type NextServer } from "./support/next-server";
import { PLAID_LINK_SCRIPT_URL } from "./support/plaid-link";
import { test as base, expect, expectNoAxeViolations, signInAs } from "./support/fixtures";

/**
 * The bank step (`/signings/<id>/bank`) in Chromium. The shared e2e server has no Plaid
 * configuration, so the journeys that link a bank run against a second `next start` of the same
 * build (its own embedded database with the demo data) whose PLAID_* point at a fake Plaid server;
 * Plaid Link's script is routed to the fake Link (tests/fakes/plaid-link/) answering from that server.
 */
type BankServer = { server: NextServer; plaid: FakePlaid };

const linked = base.extend<object, { bankServer: BankServer }>({
  bankServer: [
    async ({}, provide) => {
      const plaid = await startFakePlaid();
      const server = await startNextServer(() => ({
        PLAID_CLIENT_ID: plaid.clientId,
        PLAID_SECRET: plaid.secret,
        PLAID_BASE_URL: plaid.url,
        PLAID_ENV: "sandbox",
        BANK_TOKEN_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
      }));
      await provide({ server, plaid });
      await server.stop();
      await plaid.close();
    },
    { scope: "worker", timeout: 120_000 },
  ],
  baseURL: async ({ bankServer }, provide) => {
    await provide(bankServer.server.baseUrl);
  },
  // The fixtures' fake Plaid is this server's, so `plaidLink` answers with tokens it can exchange.
  fakePlaid: async ({ bankServer }, provide) => {
    await provide(bankServer.plaid);
  },
});

function cspOf(response: { headers(): Record<string, string> } | null): string {
  return response?.headers()["content-security-policy"] ?? "";
}

/** Requests the page made to any host but our own. */
function thirdPartyRequests(page: Page, origin: string): string[] {
  const seen: string[] = [];
  page.on("request", (request) => {
    const url = request.url();
    if (!url.startsWith(origin) && !url.startsWith("data:") && !url.startsWith("blob:")) seen.push(url);
  });
  return seen;
}

async function shoot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  await page.screenshot({ path: testInfo.outputPath(`${name}-${testInfo.project.name}.png`), fullPage: true });
}

async function bankStatus(page: Page): Promise<{ connected: boolean; item: { institution_id: string; institution_name: string } | null }> {
  const response = await page.request.get("/api/bank/status");
  expect(response.status()).toBe(200);
  return response.json();
}

linked.describe("bank step with Plaid configured", () => {
  linked("explains without jargon when the bank approved but the connection could not be saved (persisted: false)", async ({ page, plaidLink }) => {
    await signInAs(page, "signer@demo.local");
    const signingId = await demoPackageSigningId(page);
    // The server's answer when BANK_TOKEN_ENCRYPTION_KEY is unusable (docs/integrations.md); this server has a good key.
    // The bank step names its package (`?package=<id>`) on every call.
    await page.route("**/api/bank/exchange?*", (route) =>
      route.fulfill({
        json: { item_id: "item-not-saved", institution_id: "ins_109508", persisted: false, persist_hint: "Set BANK_TOKEN_ENCRYPTION_KEY." },
      }),
    );
    const bank = await new BankStepPage(page).goto(signingId);
    await bank.linkButton.click();
    await expect(bank.status).toContainText("we couldn't save it on our side");
    await expect(bank.status).not.toContainText("BANK_TOKEN_ENCRYPTION_KEY");
    await expect(bank.connectedHeading).toHaveCount(0);
    expect(plaidLink.opens.map((o) => o.outcome.kind)).toEqual(["success"]);
    expect((await bankStatus(page)).connected).toBe(false);
    await expectNoAxeViolations(page);
  });

  linked("links a bank through Plaid Link: institution and Connected, Plaid's script only here and allowed by this page's CSP only", async ({
    page,
    plaidLink,
    bankServer,
  }, testInfo) => {
    await signInAs(page, "signer@demo.local");
    const signingId = await demoPackageSigningId(page);
    const origin = bankServer.server.baseUrl;

    const packageResponse = await page.goto(`/signings/${signingId}`);
    expect(cspOf(packageResponse)).not.toContain("plaid");
    const homeResponse = await page.goto("/");
    expect(cspOf(homeResponse)).not.toContain("plaid");

    const thirdParty = thirdPartyRequests(page, origin);
    const response = await page.goto(BankStepPage.path(signingId));
    const csp = cspOf(response);
    expect(csp).toMatch(/script-src [^;]*https:\/\/cdn\.plaid\.com/);
    expect(csp).toMatch(/frame-src [^;]*https:\/\/cdn\.plaid\.com/);
    expect(csp).toMatch(/connect-src [^;]*https:\/\/sandbox\.plaid\.com/);

    const bank = new BankStepPage(page);
    await expect(bank.heading).toBeVisible();
    await expect(bank.currentStep).toContainText("Link your bank");
    // Nothing signed yet: the earlier steps are not marked done.
    await expect(bank.steps.getByText("(done)")).toHaveCount(0);
    await expect(page.getByText("Step 3 of 4")).toBeVisible();
    await expect(bank.connectedHeading).toHaveCount(0);
    await expectNoAxeViolations(page);
    await shoot(page, testInfo, "bank-step");

    await bank.linkButton.click();
    await expect(bank.connectedHeading).toBeVisible();
    await expect(bank.connectedHeading).toBeFocused();
    await expect(bank.institution).toHaveText("First Platypus Bank");
    // The step list follows without a reload: the bank step is done.
    await expect(bank.steps.getByRole("listitem").filter({ hasText: "Link your bank" })).toContainText("(done)");
    await expect(bank.currentStep).toHaveCount(0);
    expect(plaidLink.opens.map((o) => o.outcome.kind)).toEqual(["success"]);
    expect(await bankStatus(page)).toMatchObject({ connected: true, item: { institution_id: "ins_109508", institution_name: "First Platypus Bank" } });
    // The signer has not signed yet: the step leads back to the documents, not to done.
    await expect(bank.continueLink("Continue to your documents")).toHaveAttribute("href", `/signings/${signingId}`);
    await expectNoAxeViolations(page);
    await shoot(page, testInfo, "bank-step-connected");
    expect(thirdParty).toEqual([PLAID_LINK_SCRIPT_URL]);

    // The server renders the link on the next visit.
    await page.reload();
    await expect(bank.connectedHeading).toBeVisible();
    await expect(bank.institution).toHaveText("First Platypus Bank");
    await expect(bank.differentBankButton).toBeVisible();
  });

  linked("closing Link says the bank can be linked later; an expired link token is replaced and the retry links", async ({
    page,
    plaidLink,
    fakePlaid,
  }, testInfo) => {
    await signInAs(page, "cosigner@demo.local");
    const signingId = await demoPackageSigningId(page);
    const bank = await new BankStepPage(page).goto(signingId);

    plaidLink.setBehaviour({ kind: "exit" });
    await bank.linkButton.click();
    await expect(bank.status).toContainText("You can link your bank later from this page.");
    await expect(bank.continueLink("Skip for now")).toBeVisible();
    await expectNoAxeViolations(page);
    await shoot(page, testInfo, "bank-step-exit");

    // Hours later, the link token the page holds has expired: Link refuses it, the page fetches a new one.
    fakePlaid.advance(4 * 3600_000 + 1);
    plaidLink.setBehaviour({ kind: "success", institutionId: "ins_109511" });
    await bank.tryAgainButton.click();
    await expect(bank.status).toContainText("Your secure bank session timed out");
    await expect(bank.tryAgainButton).toBeEnabled();
    await expectNoAxeViolations(page);
    await bank.tryAgainButton.click();
    await expect(bank.connectedHeading).toBeVisible();
    await expect(bank.institution).toHaveText("Tartan Bank");

    expect(plaidLink.opens.map((o) => o.outcome.kind)).toEqual(["exit", "exit", "success"]);
    const [first, expired, retried] = plaidLink.opens;
    expect(expired!.linkToken).toBe(first!.linkToken);
    expect(expired!.outcome).toMatchObject({ error: { error_code: "INVALID_LINK_TOKEN" } });
    expect(retried!.linkToken).not.toBe(expired!.linkToken);
    expect(await bankStatus(page)).toMatchObject({ connected: true, item: { institution_name: "Tartan Bank" } });
  });
});

base.describe("bank step without Plaid configured", () => {
  base("says bank linking is not available and how to continue, and loads nothing from Plaid", async ({ page, baseURL }, testInfo) => {
    await signInAs(page, "signer@demo.local");
    const signingId = await demoPackageSigningId(page);
    const thirdParty = thirdPartyRequests(page, baseURL!);
    const bank = await new BankStepPage(page).goto(signingId);
    await expect(page.getByText("Linking a bank account online isn't available for this package right now.")).toBeVisible();
    await expect(bank.linkButton).toHaveCount(0);
    await expect(bank.continueLink("Continue to your documents")).toHaveAttribute("href", `/signings/${signingId}`);
    expect(await page.locator('script[src*="plaid"]').count()).toBe(0);
    expect(thirdParty).toEqual([]);
    await expectNoAxeViolations(page);
    await shoot(page, testInfo, "bank-step-unavailable");
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });

  base("is not found for somebody who is not a signer of the package", async ({ page }) => {
    await signInAs(page, "signer@demo.local");
    const signingId = await demoPackageSigningId(page);
    await page.context().clearCookies();
    await signInAs(page, "manager@demo.local");
    const response = await page.goto(BankStepPage.path(signingId));
    expect(response?.status()).toBe(404);
  });

  base("sends a visitor without a session through sign-in and back to the bank step", async ({ page }) => {
    await signInAs(page, "signer@demo.local");
    const signingId = await demoPackageSigningId(page);
    await page.context().clearCookies();
    await page.goto(BankStepPage.path(signingId));
    expect(new URL(page.url()).searchParams.get("callbackUrl")).toBe(BankStepPage.path(signingId));
  });
});
