import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { locations, organizations, type FlowStep } from "@/db/schema";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { getBankStatus } from "@/lib/bank/get-bank-status";
import { brandMarkOf, getOrganizationBranding, type BrandMark } from "@/lib/branding/branding";
import { resolveBorrowerLocale, type Locale } from "@/lib/i18n/locales";
import { getSigningFlowSteps } from "@/lib/flows/get-signing-flow-steps";
import { buildSignerSigningView, type SignerSigningView } from "@/lib/signings/build-signer-signing-view";
import { decideSignerPageState, type SignerPageState } from "@/lib/signings/decide-signer-page-state";
import { bankOwnerOf } from "@/lib/bank/bank-owner";
import { markAssignmentViewed } from "@/lib/signings/get-assigned-signing";
import { getSignerAssignmentOrThrow } from "@/lib/packages/get-signer-assignment-or-throw";
import { findConsentEntry } from "@/lib/packages/find-consent-entry";
import { inPersonSigningOf } from "@/lib/in-person/end-in-person-signing";

export type GetSignerPackagePageOptions = { principal: Principal; packageId: string; ipAddress?: string | null };

export type FlowStepStatus = "complete" | "current" | "upcoming";

export type SignerPackagePage = {
  state: SignerPageState;
  view: SignerSigningView;
  sender: { organizationName: string; locationName: string };
  /** Why the sender cancelled, when they said. */
  cancelReason: string | null;
  /** The caller's own reason, when they declined. */
  myDeclineReason: string | null;
  flow: { steps: { step: FlowStep; status: FlowStepStatus }[]; current: FlowStep | null };
  /** The documents that carry a signature request of the caller, with whether all of those are signed. */
  signable: { id: string; name: string; sha256: string; signed: boolean; signedAt: string | null }[];
  /** The caller accepted the electronic-records disclosure for this package (`getSigningConsent`). */
  consentGiven: boolean;
  /** Only when the flow has a `link_bank` step. */
  bank: { connected: boolean; institutionName: string | null } | null;
  /** The lender's mark for the page header and buttons (lib/branding). */
  brand: BrandMark;
  /** The language the lender chose for this signer (the signer's, else the organization's default, else English); the borrower's own choice on the page overrides it. */
  language: Locale;
  /** Set when this is an in-person session at the lender's desk: who hosts it (the page offers to hand the device back). */
  inPerson: { hostName: string } | null;
};

/** How far a signer can be along any flow; a flow lists a subset of these in this order. */
const STEP_RANK: Record<FlowStep, number> = { review: 0, sign: 1, link_bank: 2, upload_documents: 3, done: 4 };

/**
 * Everything the signer's package page shows, with its state decided here. Only the "your turn"
 * state goes through `getAssignedSigning`, which marks the caller `viewed`: a signer who opens a
 * package while an earlier routing group is still signing has not been asked yet. 404 (NotFound)
 * for a package that is not the caller's or is a draft.
 */
export async function getSignerPackagePage(db: Db, options: GetSignerPackagePageOptions): Promise<SignerPackagePage> {
  requireCapability(options.principal, "signer:signings:read", "You do not have permission to read signing packages.");
  let assignment = await getSignerAssignmentOrThrow(db, options);
  let view = await buildSignerSigningView(db, assignment);
  const state = decideSignerPageState(view);
  if (state.kind === "your_turn") {
    const viewed = await markAssignmentViewed(db, assignment, options);
    if (viewed !== assignment) {
      assignment = viewed;
      view = await buildSignerSigningView(db, viewed);
    }
  }

  const { signing, signer } = assignment;
  const [sender] = await db
    .select({ organizationName: organizations.name, locationName: locations.name, settings: organizations.settings })
    .from(organizations)
    .innerJoin(locations, eq(locations.id, signing.locationId))
    .where(eq(organizations.id, signing.organizationId))
    .limit(1);
  // The same reader of the trail the sign action checks before it records a signature.
  const consent = await findConsentEntry(db, { packageId: signing.id, signerId: signer.id });

  const signable = view.documents
    .filter((d) => d.signatureRequests.length > 0)
    .map((d) => {
      const signed = d.signatureRequests.every((r) => r.status === "signed");
      const times = d.signatureRequests.map((r) => r.signedAt).filter((t): t is string => t !== null).sort();
      return { id: d.id, name: d.name, sha256: d.sha256, signed, signedAt: signed ? (times.at(-1) ?? null) : null };
    });

  const steps = await getSigningFlowSteps(db, { organizationId: signing.organizationId, flowId: signing.flowId });
  const bankStatus = steps.includes("link_bank") ? await getBankStatus(db, { owner: bankOwnerOf(options.principal) }) : null;
  const bank = bankStatus ? { connected: bankStatus.connected, institutionName: bankStatus.item?.institution_name ?? null } : null;

  const branding = await getOrganizationBranding(db, signing.organizationId);
  const session = options.principal.signerSession;
  const hosted = session?.method === "in_person" ? await inPersonSigningOf(db, session.sessionId) : null;
  return {
    inPerson: hosted ? { hostName: hosted.hostName } : null,
    state,
    view,
    brand: brandMarkOf(branding, sender?.organizationName),
    // The lender as borrowers know it: the display name set in the branding, else the organization's name.
    sender: { organizationName: branding?.displayName ?? sender?.organizationName ?? "", locationName: sender?.locationName ?? "" },
    language: resolveBorrowerLocale({ signerLanguage: signer.language, organizationDefault: sender?.settings.defaultLanguage }),
    cancelReason: signing.cancelReason,
    myDeclineReason: signer.status === "declined" ? signer.declineReason : null,
    flow: flowProgress(steps, state, { anySigned: signable.some((d) => d.signed), bankConnected: bank?.connected ?? false }),
    signable,
    consentGiven: consent !== undefined,
    bank,
  };
}

/**
 * Where the signer stands: reading until they sign something, signing until they have signed all,
 * then linking a bank (when the flow asks and none is connected), then the rest of the flow. The
 * current step is the first step of the flow at or past that point. Stopped packages have none.
 */
function flowProgress(
  steps: FlowStep[],
  state: SignerPageState,
  { anySigned, bankConnected }: { anySigned: boolean; bankConnected: boolean },
): SignerPackagePage["flow"] {
  let reached: number | null;
  switch (state.kind) {
    case "waiting":
      reached = STEP_RANK.review;
      break;
    case "your_turn":
      reached = anySigned ? STEP_RANK.sign : STEP_RANK.review;
      break;
    case "signed":
      reached = steps.includes("link_bank") && !bankConnected ? STEP_RANK.link_bank : STEP_RANK.upload_documents;
      break;
    default:
      reached = null;
  }
  const current = reached === null ? null : (steps.find((s) => STEP_RANK[s] >= reached) ?? null);
  const currentIndex = current === null ? -1 : steps.indexOf(current);
  return {
    current,
    steps: steps.map((step, index) => ({
      step,
      status: current === null ? "upcoming" : index < currentIndex ? "complete" : index === currentIndex ? "current" : "upcoming",
    })),
  };
}
