import type { PlaidApi } from "plaid";
import type { Db } from "@/db/client";
import { eq } from "drizzle-orm";
import { bankItems, packageSigners, signingPackages } from "@/db/schema";
import { log } from "@/lib/log";
import { emitEvent } from "@/lib/webhooks/emit-event";
import { bankOwnerColumns, bankOwnerLogFields, type BankOwner } from "./bank-owner";
import { getPlaidClient } from "./plaid-client";
import { encryptBankToken, loadBankTokenKey } from "./token-crypto";
import { toBankProviderError } from "./to-bank-provider-error";

export type ExchangePublicTokenOptions = { owner: BankOwner; publicToken: string; plaid?: PlaidApi };

export type ExchangePublicTokenResult = {
  item_id: string;
  institution_id: string | null;
  persisted: boolean;
  persist_hint: string | null;
};

export const PERSIST_HINT_KEY =
  "The bank account was linked but could not be saved: the server's bank token encryption key (BANK_TOKEN_ENCRYPTION_KEY) is missing or invalid. Ask the administrator to check the encryption key configuration, then link the account again.";

/**
 * Exchanges Link's one-time `public_token` (single use, 30 minutes) for the item's access token and
 * stores the item for its owner (the signed-in user, or the signer of a signer session) with the access token encrypted (AES-256-GCM). Without a usable
 * encryption key nothing is stored — never the token in clear — and the answer says so
 * (`persisted: false`, `persist_hint`) instead of failing the user's link.
 */
export async function exchangePublicToken(db: Db, options: ExchangePublicTokenOptions): Promise<ExchangePublicTokenResult> {
  const plaid = options.plaid ?? getPlaidClient();
  let accessToken: string;
  let itemId: string;
  try {
    const { data } = await plaid.itemPublicTokenExchange({ public_token: options.publicToken });
    accessToken = data.access_token;
    itemId = data.item_id;
  } catch (error) {
    throw toBankProviderError(error, "item/public_token/exchange");
  }

  // The item is linked at Plaid from here on; a failed lookup must not lose it.
  let institutionId: string | null = null;
  let institutionName: string | null = null;
  try {
    const { data } = await plaid.itemGet({ access_token: accessToken });
    institutionId = data.item.institution_id ?? null;
    institutionName = data.item.institution_name ?? null;
  } catch (error) {
    log.warn("bank item lookup failed; storing the item without its institution", { itemId, error: toBankProviderError(error, "item/get").message });
  }

  const key = loadBankTokenKey();
  if (!key) {
    log.error("bank item not persisted: BANK_TOKEN_ENCRYPTION_KEY is missing or not 32 bytes of base64", { itemId, ...bankOwnerLogFields(options.owner) });
    return { item_id: itemId, institution_id: institutionId, persisted: false, persist_hint: PERSIST_HINT_KEY };
  }

  const values = {
    ...bankOwnerColumns(options.owner),
    itemId,
    institutionId,
    institutionName,
    accessTokenCiphertext: encryptBankToken(accessToken, { key, itemId }),
    health: "healthy" as const,
  };
  await db.transaction(async (tx) => {
    await tx.insert(bankItems).values(values).onConflictDoUpdate({ target: bankItems.itemId, set: values });
    if (options.owner.kind === "signer") {
      const [signer] = await tx
        .select({ packageId: packageSigners.packageId, organizationId: signingPackages.organizationId })
        .from(packageSigners)
        .innerJoin(signingPackages, eq(signingPackages.id, packageSigners.packageId))
        .where(eq(packageSigners.id, options.owner.signerId));
      if (signer) await emitEvent(tx, "bank.linked", { ...signer, signerId: options.owner.signerId, bankItemId: itemId });
    }
  });
  log.info("bank item linked", { itemId, ...bankOwnerLogFields(options.owner), institutionId });
  return { item_id: itemId, institution_id: institutionId, persisted: true, persist_hint: null };
}
