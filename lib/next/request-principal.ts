import type { Db } from "@/db/client";
import { getSessionPrincipal } from "@/lib/sign-in/get-session-principal";
import type { Principal } from "@/lib/auth/principal";
import type { LinkHolderKind } from "@/lib/link-holders/link-holders";
import { provenLinkHolder } from "./link-sessions";

export type RequestPrincipalOptions = {
  /** A route handler's request: link cookies are read from it (the account session through Next, as usual). */
  request?: Request;
  /**
   * Read the account's local session cookie from this request too (`getSessionPrincipal`'s `request`),
   * so the resolver runs as a plain function outside Next (tests). Route handlers in Next leave it out.
   */
  accountFromRequest?: boolean;
  /**
   * The package a signer's page or route serves, passed by the caller (never parsed out of a URL): a
   * proven link session of that kind for that package is the principal, narrowed to that package.
   * A link session still to be proven does not count, and the account session decides.
   */
  link?: { kind: LinkHolderKind; packageId: string };
};

/**
 * The one resolver from a request to a principal: the link holder's session for the package the
 * caller names (lib/link-holders) when there is a proven one, otherwise the signed-in account
 * (`getSessionPrincipal`), otherwise null.
 */
export async function requestPrincipal(db: Db, options: RequestPrincipalOptions = {}): Promise<Principal | null> {
  if (options.link) {
    const linked = await provenLinkHolder(db, options.link.kind, options.link.packageId, options.request);
    if (linked) return linked;
  }
  return getSessionPrincipal(db, options.accountFromRequest && options.request ? { request: options.request } : {});
}
