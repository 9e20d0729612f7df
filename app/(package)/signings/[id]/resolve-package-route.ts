import { notFound } from "next/navigation";
import { cache } from "react";
import { hasCapability } from "@/lib/auth/principal";
import { getManagerSigningPage, type ManagerSigningPage } from "@/lib/views/get-manager-signing-page";
import { getSignerPackagePage, type SignerPackagePage } from "@/lib/views/get-signer-package-page";
import { canManagePackage } from "@/app/_lib/can-manage-package";
import { loadOrNull } from "@/app/_lib/load-or-404";
import { requirePrincipal } from "@/app/_lib/require-principal";

export type PackageRoute =
  | { kind: "signer"; page: SignerPackagePage; manageHref: string | null }
  | { kind: "manager"; page: ManagerSigningPage; manageHref: string; signerViewHref: string | null };

/**
 * Who `/signings/<id>` is for. A signer of the package gets the signer's page (with a link to the
 * manager's view when they also manage it); a principal who reads the package as a manager and is
 * not a signer of it (or the package is a draft, which signers do not see) gets the manager's view;
 * `view=manage` asks for the manager's view first (a manager who also signs). Anyone else: 404.
 * Only "not found" answers of the domain lead to the next candidate; any other error propagates.
 * Cached per request (metadata and page).
 */
export const resolvePackageRoute = cache(
  async (packageId: string, view: string | undefined, auditCursor: string | undefined, ipAddress: string | null): Promise<PackageRoute> => {
    const signerHref = `/signings/${packageId}`;
    const manageHref = `${signerHref}?view=manage`;
    const wantsManage = view === "manage";
    const { db, principal } = await (wantsManage ? requirePrincipal(manageHref) : requirePrincipal(signerHref, { signerOf: packageId }));
    const loadManager = async () =>
      hasCapability(principal, "signings:read") ? loadOrNull(getManagerSigningPage(db, { principal, packageId, auditCursor })) : null;

    if (wantsManage) {
      const page = await loadManager();
      if (page) {
        const signs = page.detail.status !== "draft" && page.detail.signers.some((s) => s.userId === principal.user.id);
        return { kind: "manager", page, manageHref, signerViewHref: signs ? signerHref : null };
      }
    }
    const signerPage = await loadOrNull(getSignerPackagePage(db, { principal, packageId, ipAddress }));
    if (signerPage) {
      return { kind: "signer", page: signerPage, manageHref: (await canManagePackage(db, principal, packageId)) ? manageHref : null };
    }
    const page = wantsManage ? null : await loadManager();
    if (page) return { kind: "manager", page, manageHref: signerHref, signerViewHref: null };
    notFound();
  },
);
