import type { ReactNode } from "react";

/** The frame of the access pages a signer reaches from an email: no header, one card, phone-first. */
export default function AccessLayout({ children }: { children: ReactNode }) {
  return (
    <main id="main" className="mx-auto max-w-md px-4 py-10 sm:py-16">
      {children}
    </main>
  );
}
