import type { PackageSigner, SignerAuthMethod, SigningPackage } from "@/db/schema";

/** The signer's own method when set, else the package's. */
export function effectiveAuthMethod(signing: Pick<SigningPackage, "signerAuthMethod">, signer: Pick<PackageSigner, "authMethod">): SignerAuthMethod {
  return signer.authMethod ?? signing.signerAuthMethod;
}
