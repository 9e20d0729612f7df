import type { ReactNode } from "react";
import { SiteFrame } from "../_components/site-frame";

/** Frame of the signer's pages: phone-first; each page enforces sign-in itself (`requirePrincipal`). */
export default function SignerLayout({ children }: { children: ReactNode }) {
  return <SiteFrame borrower mainClassName="mx-auto max-w-6xl px-4 py-6 sm:px-6 lg:py-8">{children}</SiteFrame>;
}
