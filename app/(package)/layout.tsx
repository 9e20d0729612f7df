import type { ReactNode } from "react";
import { SiteFrame } from "../_components/site-frame";

/**
 * Frame of `/signings/<id>`, the page a package's signers and managers share: the signer's frame
 * (phone-first), since the link in every email about a package lands here.
 */
export default function PackageLayout({ children }: { children: ReactNode }) {
  return <SiteFrame borrower mainClassName="mx-auto max-w-6xl px-4 py-6 sm:px-6 lg:py-8">{children}</SiteFrame>;
}
