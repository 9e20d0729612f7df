import type { ReactNode } from "react";
import Link from "next/link";
import { SiteFrame } from "../_components/site-frame";

/**
 * Frame of the manager's console and the organization admin's workspace: desktop-first (1280 px),
 * usable at 768 px. Each page enforces sign-in and its capability itself (`requirePrincipal`).
 */
export default function ManagerLayout({ children }: { children: ReactNode }) {
  return (
    <SiteFrame link={Link} wide mainClassName="mx-auto max-w-7xl px-4 py-6 sm:px-6 lg:py-8">
      {children}
    </SiteFrame>
  );
}
