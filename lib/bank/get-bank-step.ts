import type { Db } from "@/db/client";
import type { FlowStep, PackageSigner, SigningStatus } from "@/db/schema";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { brandMarkOf, getOrganizationBranding, type BrandMark } from "@/lib/branding/branding";
import { getEnv, type Env } from "@/lib/env";
import { getSigningFlowSteps } from "@/lib/flows/get-signing-flow-steps";
import { getSignerAssignmentOrThrow } from "@/lib/packages/get-signer-assignment-or-throw";
import { bankOwnerOf } from "./bank-owner";
import { getBankStatus, type BankStatus } from "./get-bank-status";

export type GetBankStepOptions = { principal: Principal; packageId: string; env?: Env };

/**
 * Whether the bank step can open Plaid Link:
 * - `available`: yes;
 * - `not_configured`: PLAID_CLIENT_ID / PLAID_SECRET are unset (the bank endpoints answer 503);
 * - `not_in_flow`: the package's flow has no `link_bank` step;
 * - `closed`: the package was cancelled, declined or expired, or the caller declined it.
 */
export type BankStepAvailability = "available" | "not_configured" | "not_in_flow" | "closed";

export type BankStep = {
  signing: { id: string; title: string; status: SigningStatus };
  /** The lender's mark for the page header, the lead text and the buttons (lib/branding). */
  brand: BrandMark;
  signerStatus: PackageSigner["status"];
  /** The package's flow (its own, else the organization's default, else review → sign → done). */
  steps: FlowStep[];
  availability: BankStepAvailability;
  /** The caller's bank link, the same shape `GET /api/bank/status` answers. */
  bank: BankStatus;
};

const CLOSED_SIGNING_STATUSES: readonly SigningStatus[] = ["cancelled", "declined", "expired"];

/**
 * What the bank step of one package shows its signer. The caller must be a signer of the package
 * (anything else, a draft included, is a 404); reading it records nothing (the package page records
 * `viewed`). The bank link itself belongs to the user, not to the package; in a signer session (an
 * emailed link) it belongs to that signer of this package.
 */
export async function getBankStep(db: Db, options: GetBankStepOptions): Promise<BankStep> {
  requireCapability(options.principal, "signer:signings:read", "You do not have permission to read signing packages.");
  const { signing, signer } = await getSignerAssignmentOrThrow(db, options);
  const steps = await getSigningFlowSteps(db, { organizationId: signing.organizationId, flowId: signing.flowId });
  const bank = await getBankStatus(db, { owner: bankOwnerOf(options.principal) });
  const branding = await getOrganizationBranding(db, signing.organizationId);
  const env = options.env ?? getEnv();

  let availability: BankStepAvailability = "available";
  if (CLOSED_SIGNING_STATUSES.includes(signing.status) || signer.status === "declined") availability = "closed";
  else if (!steps.includes("link_bank")) availability = "not_in_flow";
  else if (!env.PLAID_CLIENT_ID || !env.PLAID_SECRET) availability = "not_configured";

  return {
    signing: { id: signing.id, title: signing.title, status: signing.status },
    brand: brandMarkOf(branding),
    signerStatus: signer.status,
    steps,
    availability,
    bank,
  };
}
