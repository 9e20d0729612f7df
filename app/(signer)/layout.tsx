import type { ReactNode } from "react";
import { SiteHeader } from "@/components/site-header";
import { consoleNavigation } from "@/lib/auth/console-navigation";
import { getPagePrincipal } from "../_lib/require-principal";

/** Header and frame for the signer's pages; each page enforces sign-in itself (`requirePrincipal`). */
export default async function SignerLayout({ children }: { children: ReactNode }) {
  const { principal } = await getPagePrincipal();
  return (
    <>
      {principal ? <SiteHeader user={principal.user} nav={consoleNavigation(principal)} /> : null}
      <main id="main" className="mx-auto max-w-6xl px-4 py-6 sm:px-6 lg:py-8">
        {children}
      </main>
    </>
  );
}
