import { eq, type SQL } from "drizzle-orm";
import { uploads } from "@/db/schema";
import type { Principal } from "@/lib/auth/principal";

/** Who owns an upload: exactly one of a user, a package's signer (their session), or a settlement agent's link (its session). */
export type UploadOwner = { createdByUserId: string; signerId: null; agentLinkId: null } | { createdByUserId: null; signerId: string; agentLinkId: null } | { createdByUserId: null; signerId: null; agentLinkId: string };

/**
 * The owner an upload created by this principal gets. A signer session (an emailed link or an
 * embedded signing, account or not) owns it as that signer of that package; a settlement agent's
 * session as its link; anyone else as their user. A session's upload is therefore never its
 * account's, nor the reverse: each is attached only through the kind of session that made it.
 */
export function uploadOwnerOf(principal: Principal): UploadOwner {
  if (principal.signerSession) return { createdByUserId: null, signerId: principal.signerSession.signerId, agentLinkId: null };
  if (principal.agentSession) return { createdByUserId: null, signerId: null, agentLinkId: principal.agentSession.linkId };
  return { createdByUserId: principal.user.id, signerId: null, agentLinkId: null };
}

/** The condition that an upload row is this principal's (see `uploadOwnerOf`). */
export function ownedBy(principal: Principal): SQL {
  const owner = uploadOwnerOf(principal);
  if (owner.signerId) return eq(uploads.signerId, owner.signerId);
  if (owner.agentLinkId) return eq(uploads.agentLinkId, owner.agentLinkId);
  return eq(uploads.createdByUserId, owner.createdByUserId!);
}
