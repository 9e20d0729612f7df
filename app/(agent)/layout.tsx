import type { ReactNode } from "react";

/** The frame of a settlement agent's pages, reached from an emailed link: no console header, phone-first. */
export default function AgentLayout({ children }: { children: ReactNode }) {
  return (
    <main id="main" className="mx-auto max-w-3xl px-4 py-8 sm:py-12">
      {children}
    </main>
  );
}
