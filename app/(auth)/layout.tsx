import type { ReactNode } from "react";

export default function AuthLayout({ children }: { children: ReactNode }) {
  return (
    <main id="main" className="flex min-h-screen items-start justify-center px-4 py-10 sm:items-center sm:py-16">
      <div className="w-full max-w-md space-y-6">
        <p className="text-center text-base font-semibold text-slate-900">Closing &amp; Signing</p>
        {children}
      </div>
    </main>
  );
}
