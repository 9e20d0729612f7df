import { z } from "zod";

/** `GET /api/bank/status` (docs/integrations.md), the fields the bank step reads. */
const BankItemJson = z.object({
  item_id: z.string(),
  institution_id: z.string().nullable(),
  institution_name: z.string().nullable(),
  health: z.string(),
  needs_attention: z.boolean(),
  linked_at: z.string(),
});
const BankStatusJson = z.object({ connected: z.boolean(), item: BankItemJson.nullable() });
const LinkTokenJson = z.object({ link_token: z.string().min(1) });
const ExchangeJson = z.object({ item_id: z.string(), institution_id: z.string().nullable(), persisted: z.boolean() });

export type BankLinkStatus = z.infer<typeof BankStatusJson>;

/** Which sentence the signer reads: a key of the `bankLink` namespace of messages/<locale>.json. */
export type BankSentence = "signed_out" | "unavailable" | "refused" | "exchange" | "network" | "unexpected";

/** A failed call to our `/api/bank/*`; `sentence` names what the signer reads (the bank widget translates it). */
export class BankApiError extends Error {
  constructor(
    readonly kind: "signed_out" | "unavailable" | "rejected" | "network",
    readonly sentence: BankSentence,
  ) {
    super(`bank call failed: ${sentence}`);
  }
}

async function call(path: string, init: RequestInit, what: "token" | "exchange" | "status"): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(path, { ...init, credentials: "same-origin", cache: "no-store" });
  } catch {
    throw new BankApiError("network", "network");
  }
  if (response.status === 401) throw new BankApiError("signed_out", "signed_out");
  if (response.status === 503) throw new BankApiError("unavailable", "unavailable");
  if (response.status === 403) throw new BankApiError("rejected", "refused");
  if (response.status === 400 && what === "exchange") throw new BankApiError("rejected", "exchange");
  if (!response.ok) throw new BankApiError("rejected", "unexpected");
  try {
    return await response.json();
  } catch {
    throw new BankApiError("rejected", "unexpected");
  }
}

function parse<T>(schema: z.ZodType<T>, value: unknown): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new BankApiError("rejected", "unexpected");
  return parsed.data;
}

const JSON_POST = { method: "POST", headers: { "content-type": "application/json" } } as const;

/**
 * Each call names the package (`?package=`): a borrower who opened the emailed link has only that
 * package's signer session, no account session; an account holder's session works either way.
 */
function bankPath(path: string, packageId: string): string {
  return `${path}?package=${encodeURIComponent(packageId)}`;
}

export async function fetchLinkToken(packageId: string): Promise<string> {
  return parse(LinkTokenJson, await call(bankPath("/api/bank/link-token", packageId), JSON_POST, "token")).link_token;
}

export async function exchangePublicToken(packageId: string, publicToken: string): Promise<{ persisted: boolean }> {
  return parse(
    ExchangeJson,
    await call(bankPath("/api/bank/exchange", packageId), { ...JSON_POST, body: JSON.stringify({ public_token: publicToken }) }, "exchange"),
  );
}

export async function fetchBankStatus(packageId: string): Promise<BankLinkStatus> {
  return parse(BankStatusJson, await call(bankPath("/api/bank/status", packageId), { method: "GET" }, "status"));
}
