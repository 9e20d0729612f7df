import type { ReactNode } from "react";
import { SiteHeader } from "@/components/site-header";
import { consoleNavigation } from "@/lib/auth/console-navigation";
import { getPagePrincipal } from "../_lib/require-principal";

/**
 * The header and `<main>` every route group's layout draws: the header once signed in (a layout does
 * not know the requested path and is not re-rendered on client navigation, so each page enforces
 * sign-in itself with `requirePrincipal`). `wide`: the manager's console (desktop-first, 1280 px).
 */
export async function SiteFrame({ children, wide = false, mainClassName }: { children: ReactNode; wide?: boolean; mainClassName: string }) {
  const { principal } = await getPagePrincipal();
  return (
    <>
      {principal ? <SiteHeader user={principal.user} nav={consoleNavigation(principal)} wide={wide} /> : null}
      <main id="main" className={mainClassName}>
        {children}
      </main>
    </>
  );
}
