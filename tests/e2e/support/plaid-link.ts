import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import type { Page } from "@playwright/test";
import { SANDBOX_INSTITUTIONS, type FakePlaid } from "../../fakes/plaid/server";

/** The one address Plaid Link's script is loaded from (react-plaid-link's PLAID_LINK_STABLE_URL). */
export const PLAID_LINK_SCRIPT_URL = "https://cdn.plaid.com/link/v2/stable/link-initialize.js";
const FAKE_SCRIPT = fileURLToPath(new URL("../../fakes/plaid-link/link-initialize.js", import.meta.url));

/** What the person does in Link the next time it opens. */
export type PlaidLinkBehaviour = { kind: "success"; institutionId?: string } | { kind: "exit" };

type PlaidError = { error_type: string; error_code: string; error_message: string; display_message: string | null };
type Institution = { name: string; institution_id: string };
export type PlaidLinkOutcome =
  | {
      kind: "success";
      publicToken: string;
      metadata: {
        institution: Institution;
        accounts: { id: string; name: string; mask: string; type: string; subtype: string; verification_status: null }[];
        link_session_id: string;
        public_token: string;
        transfer_status: null;
      };
    }
  | { kind: "exit"; error: PlaidError | null; metadata: { institution: Institution | null; status: string | null; link_session_id: string } };

export type FakePlaidLink = {
  /** Sets what the next `open()` does (default: success at First Platypus Bank). */
  setBehaviour: (behaviour: PlaidLinkBehaviour) => void;
  /** Every `open()` the page made, with the link token it passed and how it ended. */
  opens: { linkToken: string; outcome: PlaidLinkOutcome }[];
};

async function callPlaid(plaid: FakePlaid, path: string, body: Record<string, unknown>): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(`${plaid.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ client_id: plaid.clientId, secret: plaid.secret, ...body }),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

/**
 * Serves tests/fakes/plaid-link/link-initialize.js in place of Plaid's script for this page, and
 * answers its `open()` from the fake Plaid server: the link token must be one that server issued and
 * has not expired (else Link's `INVALID_LINK_TOKEN` exit), and a success carries a sandbox
 * `public_token` that server will exchange. Call before the page loads the script.
 */
export async function routePlaidLink(page: Page, plaid: FakePlaid, initial: PlaidLinkBehaviour = { kind: "success" }): Promise<FakePlaidLink> {
  let behaviour = initial;
  const opens: FakePlaidLink["opens"] = [];

  const decide = async (linkToken: string, linkSessionId: string): Promise<PlaidLinkOutcome> => {
    const check = await callPlaid(plaid, "/link/token/get", { link_token: linkToken });
    if (check.status !== 200) {
      return { kind: "exit", error: check.json as PlaidError, metadata: { institution: null, status: null, link_session_id: linkSessionId } };
    }
    if (behaviour.kind === "exit") {
      return { kind: "exit", error: null, metadata: { institution: null, status: "institution_not_found", link_session_id: linkSessionId } };
    }
    const institutionId = behaviour.institutionId ?? "ins_109508";
    const created = await callPlaid(plaid, "/sandbox/public_token/create", { institution_id: institutionId, initial_products: ["auth"] });
    if (created.status !== 200) throw new Error(`fake Plaid refused a sandbox public token: ${JSON.stringify(created.json)}`);
    const publicToken = String(created.json.public_token);
    return {
      kind: "success",
      publicToken,
      metadata: {
        institution: { name: SANDBOX_INSTITUTIONS[institutionId]!, institution_id: institutionId },
        accounts: [{ id: `acc-${randomUUID()}`, name: "Plaid Checking", mask: "0000", type: "depository", subtype: "checking", verification_status: null }],
        link_session_id: linkSessionId,
        public_token: publicToken,
        transfer_status: null,
      },
    };
  };

  await page.exposeFunction("__fakePlaidLinkOpen", async (request: { token: string; linkSessionId: string }) => {
    const outcome = await decide(request.token, request.linkSessionId);
    opens.push({ linkToken: request.token, outcome });
    return outcome;
  });
  await page.route(PLAID_LINK_SCRIPT_URL, (route) => route.fulfill({ path: FAKE_SCRIPT, contentType: "application/javascript; charset=utf-8" }));

  return {
    setBehaviour: (next) => {
      behaviour = next;
    },
    opens,
  };
}
