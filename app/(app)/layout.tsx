import type { ReactNode } from "react";
import { SiteHeader } from "@/components/site-header";
import { consoleNavigation } from "@/lib/auth/console-navigation";
import { getPagePrincipal } from "../_lib/require-principal";

/**
 * Header and frame for signed-in pages. Each page enforces sign-in itself (`requirePrincipal`):
 * a layout does not know the requested path, and is not re-rendered on client navigation.
 */
export default async function SignedInLayout({ children }: { children: ReactNode }) {
  const { principal } = await getPagePrincipal();
  return (
    <>
      {principal ? <SiteHeader user={principal.user} nav={consoleNavigation(principal)} /> : null}
      <main id="main" className="mx-auto max-w-6xl px-4 py-8 sm:px-6">
        {children}
      </main>
    </>
  );
}
