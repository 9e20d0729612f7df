import { getEnv } from "@/lib/env";

/** The link a signer follows from any signing email: `{APP_URL}/signings/<id>`, the page its signers and managers share. */
export function signingLink(packageId: string): string {
  return `${getEnv().APP_URL.replace(/\/+$/, "")}/signings/${encodeURIComponent(packageId)}`;
}
