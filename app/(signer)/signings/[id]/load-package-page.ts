import { notFound, redirect } from "next/navigation";
import { cache } from "react";
import { AppError } from "@/lib/errors";
import { getSignerPackagePage, type SignerPackagePage } from "@/lib/signings/get-signer-package-page";
import { getSigningOrThrow } from "@/lib/signings/get-signing-or-throw";
import { requestEvidence } from "../../../_lib/request-evidence";
import { requirePrincipal } from "../../../_lib/require-principal";

/**
 * The package page's data for the signed-in signer (sign-in first, coming back to `returnTo`);
 * somebody else's package, a draft or a malformed id is the not-found page. Cached per request, so
 * the metadata and the page read it once.
 */
export const loadPackagePage = cache(async (packageId: string, returnTo: string): Promise<SignerPackagePage> => {
  const { db, principal } = await requirePrincipal(returnTo);
  try {
    return await getSignerPackagePage(db, { principal, packageId, ipAddress: (await requestEvidence()).ipAddress });
  } catch (error) {
    if (!(error instanceof AppError && error.code === "not_found")) throw error;
  }
  // The same link reaches the package's managers (declined, completed and expired emails). Until the
  // manager's package page exists they land on home, where their packages are listed.
  const managed = await getSigningOrThrow(db, { principal, signingId: packageId, capability: "signings:read" }).catch(() => null);
  if (managed) redirect("/");
  notFound();
});

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
