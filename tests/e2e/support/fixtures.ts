import { test as base } from "@playwright/test";
import { startFakePlaid, type FakePlaid } from "../../fakes/plaid/server";
import { routePlaidLink, type FakePlaidLink } from "./plaid-link";

export { expect } from "@playwright/test";
export { expectNoAxeViolations } from "./accessibility";
export { signInAs } from "./sign-in";

/** The database the e2e server runs on (a fresh one per run); empty when it runs on PGlite. */
export function e2eDatabaseUrl(): string {
  return process.env.E2E_DATABASE_URL ?? "";
}

type Fixtures = {
  /** A fake Plaid API server for this test (tests/fakes/plaid/server.ts). */
  fakePlaid: FakePlaid;
  /** Plaid Link's script routed to the fake on this test's page, answering from `fakePlaid`. */
  plaidLink: FakePlaidLink;
};

// Fixture bodies name their callback `provide`, not `use`: the React hooks lint rule reads `use` as a hook.
export const test = base.extend<Fixtures>({
  fakePlaid: async ({}, provide) => {
    const plaid = await startFakePlaid();
    await provide(plaid);
    await plaid.close();
  },
  plaidLink: async ({ page, fakePlaid }, provide) => {
    await provide(await routePlaidLink(page, fakePlaid));
  },
});
