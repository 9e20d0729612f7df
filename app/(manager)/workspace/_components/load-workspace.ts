import type { Db } from "@/db/client";
import type { Capability } from "@/lib/auth/capabilities";
import { hasCapability, type Principal } from "@/lib/auth/principal";
import { listAdministeredOrganizations } from "@/lib/workspace/list-administered-organizations";
import { requirePrincipal } from "../../../_lib/require-principal";

export type WorkspaceTab = "members" | "settings" | "webhooks" | "billing";

export type WorkspaceContext = {
  db: Db;
  principal: Principal;
  organizations: { id: number; name: string }[];
  /** The organization the page shows: `?organizationId=` when it is one of `organizations`, else the first. */
  organization: { id: number; name: string } | null;
};

/**
 * Sign-in, then the organizations the person administers for this tab's capability and the one
 * chosen in the URL. Someone without the capability gets `organization: null` and the page explains
 * instead of failing (the header does not link them here).
 */
export async function loadWorkspace(
  tab: WorkspaceTab,
  capability: Capability,
  searchParams: Record<string, string | string[] | undefined>,
): Promise<WorkspaceContext> {
  const requested = typeof searchParams.organizationId === "string" ? Number(searchParams.organizationId) : NaN;
  const path = `/workspace/${tab}${Number.isInteger(requested) ? `?organizationId=${requested}` : ""}`;
  const { db, principal } = await requirePrincipal(path);
  if (!hasCapability(principal, capability)) return { db, principal, organizations: [], organization: null };
  const organizations = await listAdministeredOrganizations(db, { principal, capability });
  const organization = organizations.find((o) => o.id === requested) ?? organizations[0] ?? null;
  return { db, principal, organizations, organization };
}

export function workspaceHref(tab: WorkspaceTab, organizationId: number, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams({ organizationId: String(organizationId), ...extra });
  return `/workspace/${tab}?${params.toString()}`;
}
