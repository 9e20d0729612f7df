import { NO_ACCOUNT_USER_ID, type Principal } from "@/lib/auth/principal";
import type { SignerSessionContext } from "./get-signer-session";


/**
 * The narrow principal of a proven signer session: no roles, only the signer capabilities (no manager
 * page, API key or `/v1` call accepts it; `/v1` never reads cookies anyway), and `signerSession`, which
 * the signer-side domain functions use instead of the user to find the signer — of that one package.
 */
export function signerSessionPrincipal(context: SignerSessionContext): Principal {
  return {
    user: { id: context.signer.userId ?? NO_ACCOUNT_USER_ID, email: context.signer.email, name: context.signer.name, authProvider: "local" },
    roles: [],
    capabilities: ["signer:signings:read", "signer:esignatures:write", "bank:link"],
    signerSession: {
      sessionId: context.session.id,
      packageId: context.signing.id,
      signerId: context.signer.id,
      method: context.session.authMethod ?? "link",
    },
  };
}

/** The user to record as the actor of a signer's act: none for a link signer without an account. */
export function actorUserIdOf(principal: Principal): string | null {
  return principal.user.id === NO_ACCOUNT_USER_ID ? null : principal.user.id;
}
