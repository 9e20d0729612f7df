import type { Metadata } from "next";
import { VerifyForm } from "./_components/verify-form";

export const metadata: Metadata = { title: "Verify a sealed PDF" };

/**
 * Public: anyone holding a PDF learns whether we sealed it, for which package and when, and whether
 * it is unchanged — without signing in, and without learning anything the file does not already show.
 */
export default function VerifyPage() {
  return (
    <main id="main" className="mx-auto max-w-2xl space-y-6 px-4 py-10 sm:py-16">
      <p className="text-base font-semibold text-slate-900">Closing &amp; Signing</p>
      <header className="space-y-2">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Verify a sealed PDF</h1>
        <p className="text-slate-700">
          When a signing package is complete, every document is sealed: the signatures and a certificate of completion are added, and the file is digitally
          signed. Choose such a PDF to check that we sealed it and that it has not changed since.
        </p>
      </header>
      <VerifyForm />
      <p className="text-sm text-slate-700">
        Offline, any PDF reader that shows signatures (Adobe Acrobat Reader, or <code>pdfsig</code> from Poppler) tells whether the file changed after sealing.
      </p>
    </main>
  );
}
