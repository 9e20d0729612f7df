import { notFound, redirect } from "next/navigation";
import { cache } from "react";
import { getSignerPackagePage, type SignerPackagePage } from "@/lib/views/get-signer-package-page";
import { canManagePackage } from "../../../_lib/can-manage-package";
import { loadOrNull } from "../../../_lib/load-or-404";
import { requestEvidence } from "../../../_lib/request-evidence";
import { requirePrincipal } from "../../../_lib/require-principal";

/**
 * The signer's pages under `/signings/<id>/` (the done page): the package's data for the signed-in
 * signer (sign-in first, coming back to `returnTo`); somebody else's package, a draft or a malformed
 * id is the not-found page. A manager of the package who is not its signer goes to the package page,
 * which shows them the manager's view. Cached per request, so the metadata and the page read it once.
 * (`/signings/<id>` itself decides between the signer and the manager in `app/(package)`.)
 */
export const loadPackagePage = cache(async (packageId: string, returnTo: string): Promise<SignerPackagePage> => {
  const { db, principal } = await requirePrincipal(returnTo, { signerOf: packageId });
  const page = await loadOrNull(getSignerPackagePage(db, { principal, packageId, ipAddress: (await requestEvidence()).ipAddress }));
  if (page) return page;
  if (await canManagePackage(db, principal, packageId)) redirect(`/signings/${packageId}`);
  notFound();
});

/** Whether the signed-in person also manages the package (the done page's "Manage this package" link). */
export const managesPackage = cache(async (packageId: string): Promise<boolean> => {
  const { db, principal } = await requirePrincipal(`/signings/${packageId}`, { signerOf: packageId });
  return canManagePackage(db, principal, packageId);
});
