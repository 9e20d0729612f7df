import { notFound, redirect } from "next/navigation";
import { cache } from "react";
import type { Db } from "@/db/client";
import { hasCapability, type Principal } from "@/lib/auth/principal";
import { AppError } from "@/lib/errors";
import { getManagerSigningPage, type ManagerSigningPage } from "@/lib/signings/get-manager-signing-page";
import { getSignerPackagePage, type SignerPackagePage } from "@/lib/signings/get-signer-package-page";
import { getSigningOrThrow } from "@/lib/signings/get-signing-or-throw";
import { requestEvidence } from "../../../_lib/request-evidence";
import { requirePrincipal } from "../../../_lib/require-principal";

/**
 * The package page's data for the signed-in signer (sign-in first, coming back to `returnTo`);
 * somebody else's package, a draft or a malformed id is the not-found page. A manager of the
 * package who is not its signer (the same link reaches them in the declined, completed and expired
 * emails) goes to the package page, which shows them the manager's view. Cached per request, so
 * the metadata and the page read it once.
 */
export const loadPackagePage = cache(async (packageId: string, returnTo: string): Promise<SignerPackagePage> => {
  const { db, principal } = await requirePrincipal(returnTo);
  try {
    return await getSignerPackagePage(db, { principal, packageId, ipAddress: (await requestEvidence()).ipAddress });
  } catch (error) {
    if (!(error instanceof AppError && error.code === "not_found")) throw error;
  }
  if (await canManage(db, principal, packageId)) redirect(`/signings/${packageId}`);
  notFound();
});

export type PackageRoute =
  | { kind: "signer"; page: SignerPackagePage; manageHref: string | null }
  | { kind: "manager"; page: ManagerSigningPage; manageHref: string; signerViewHref: string | null };

/**
 * Who `/signings/<id>` is for. A signer of the package gets the signer's page (with a link to the
 * manager's view when they also manage it); a principal who reads the package as a manager and is
 * not a signer of it (or the package is a draft, which signers do not see) gets the manager's view;
 * `view=manage` asks for the manager's view first (a manager who also signs). Anyone else: 404.
 * Cached per request (metadata and page).
 */
export const resolvePackageRoute = cache(async (packageId: string, view: string | undefined, auditCursor: string | undefined): Promise<PackageRoute> => {
  const signerHref = `/signings/${packageId}`;
  const manageHref = `${signerHref}?view=manage`;
  const wantsManage = view === "manage";
  const { db, principal } = await requirePrincipal(wantsManage ? manageHref : signerHref);
  const loadManager = async () => {
    if (!hasCapability(principal, "signings:read")) return null;
    try {
      return await getManagerSigningPage(db, { principal, packageId: packageId, auditCursor });
    } catch (error) {
      if (error instanceof AppError && error.code === "not_found") return null;
      throw error;
    }
  };
  if (wantsManage) {
    const page = await loadManager();
    if (page) {
      const signs = page.detail.status !== "draft" && page.detail.signers.some((s) => s.userId === principal.user.id);
      return { kind: "manager", page, manageHref, signerViewHref: signs ? signerHref : null };
    }
  }
  try {
    const page = await getSignerPackagePage(db, { principal, packageId, ipAddress: (await requestEvidence()).ipAddress });
    return { kind: "signer", page, manageHref: (await canManage(db, principal, packageId)) ? manageHref : null };
  } catch (error) {
    if (!(error instanceof AppError && error.code === "not_found")) throw error;
  }
  const page = wantsManage ? null : await loadManager();
  if (page) return { kind: "manager", page, manageHref: signerHref, signerViewHref: null };
  notFound();
});

/** Whether the signed-in person also manages the package (the done page's "Manage this package" link). */
export const managesPackage = cache(async (packageId: string): Promise<boolean> => {
  const { db, principal } = await requirePrincipal(`/signings/${packageId}`);
  return canManage(db, principal, packageId);
});

async function canManage(db: Db, principal: Principal, packageId: string): Promise<boolean> {
  if (!hasCapability(principal, "signings:read")) return false;
  return getSigningOrThrow(db, { principal, packageId: packageId, capability: "signings:read" }).then(
    () => true,
    () => false,
  );
}

/** "A", "A and B", "A, B and C". */
export function joinNames(names: string[]): string {
  if (names.length <= 1) return names[0] ?? "";
  return `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}

export const dateTime = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

/** A stored ISO time as the page shows it (UTC, said so). */
export function formatTime(value: string): string {
  return `${dateTime.format(new Date(value))} UTC`;
}

export function fileUrl(signingId: string, documentId: string, download = false): string {
  return `/signings/${signingId}/documents/${documentId}/file${download ? "?download=1" : ""}`;
}
