import type { Capability } from "./capabilities";
import type { Principal } from "./principal";

export type NavItem = { href: string; label: string };

/**
 * The header's links for a principal: only what its capabilities let it use, so a person never
 * follows a link to a page that would refuse them. Signers (no role) see their own pages only.
 */
const ITEMS: { href: string; label: string; requires?: Capability }[] = [
  { href: "/signings", label: "Packages", requires: "signings:read" },
  { href: "/documents", label: "Documents", requires: "documents:read" },
  { href: "/places", label: "Places", requires: "locations:read" },
  { href: "/templates", label: "Templates", requires: "templates:read" },
  { href: "/flows", label: "Flows", requires: "flows:read" },
  { href: "/vault", label: "eVault", requires: "organizations:write" },
  { href: "/workspace/members", label: "Workspace", requires: "memberships:read" },
  { href: "/me/esignatures", label: "My signatures" },
  { href: "/settings/api-keys", label: "API keys" },
];

export function consoleNavigation(principal: Pick<Principal, "capabilities">): NavItem[] {
  return ITEMS.filter((item) => !item.requires || principal.capabilities.includes(item.requires)).map(({ href, label }) => ({ href, label }));
}
