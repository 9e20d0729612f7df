import type { ReactNode } from "react";
import { SiteHeader } from "@/components/site-header";
import { consoleNavigation } from "@/lib/auth/console-navigation";
import { getPagePrincipal } from "../_lib/require-principal";

/**
 * Frame of the manager's console and the organization admin's workspace: desktop-first (1280 px),
 * usable at 768 px. Each page enforces sign-in and its capability itself (`requirePrincipal`): a
 * layout does not know the requested path and is not re-rendered on client navigation.
 */
export default async function ManagerLayout({ children }: { children: ReactNode }) {
  const { principal } = await getPagePrincipal();
  return (
    <>
      {principal ? <SiteHeader user={principal.user} nav={consoleNavigation(principal)} wide /> : null}
      <main id="main" className="mx-auto max-w-7xl px-4 py-6 sm:px-6 lg:py-8">
        {children}
      </main>
    </>
  );
}
