import type { ReactNode } from "react";
import Link from "next/link";
import { SiteFrame } from "../_components/site-frame";

/** Frame of the signed-in person's own pages (home, API keys); each page enforces sign-in itself. */
export default function AccountLayout({ children }: { children: ReactNode }) {
  return <SiteFrame link={Link} mainClassName="mx-auto max-w-6xl px-4 py-8 sm:px-6">{children}</SiteFrame>;
}
