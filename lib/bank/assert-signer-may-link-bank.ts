import type { Db } from "@/db/client";
import type { Principal } from "@/lib/auth/principal";
import { Conflict, Forbidden } from "@/lib/errors";
import { getBankStep } from "./get-bank-step";

/**
 * A signer session (an emailed link, no account) links a bank only through its own package's bank
 * step: refused (409 `package_closed`) once that package is cancelled, declined or expired or its
 * signer declined, and (403) when the package's flow has no bank step. An account session is not
 * tied to a package and is not checked here.
 */
export async function assertSignerMayLinkBank(db: Db, principal: Principal): Promise<void> {
  const session = principal.signerSession;
  if (!session) return;
  const step = await getBankStep(db, { principal, packageId: session.packageId });
  if (step.availability === "closed") throw Conflict("This package is closed, so there is no bank to link for it.", "package_closed");
  if (step.availability === "not_in_flow") throw Forbidden("This package doesn't ask you to link a bank account.");
}
