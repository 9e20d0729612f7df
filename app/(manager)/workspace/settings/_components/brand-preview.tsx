import { BrandHeader } from "@/components/brand/brand-header";
import type { BrandPreview } from "@/lib/branding/preview-branding";

/** How a borrower sees the branding: the top of a signer's page and the invitation email. */
export function BrandPreviewPanel({ preview, unsaved }: { preview: BrandPreview; unsaved: boolean }) {
  return (
    <section aria-labelledby="brand-preview-title" className="space-y-4 rounded-lg border border-slate-200 p-4">
      <h2 id="brand-preview-title" className="text-base font-semibold text-slate-900">
        What borrowers see {unsaved ? <span className="font-normal text-amber-900">(preview, not saved)</span> : null}
      </h2>
      <div>
        <h3 className="mb-1 text-sm font-medium text-slate-700">A signer&apos;s page</h3>
        <div className="overflow-hidden rounded-md border border-slate-300">
          <BrandHeader brand={preview.mark} />
          <div className="space-y-3 p-4">
            <p className="text-sm text-slate-800">Sample: purchase of 12 Oak Street · 3 documents to review and sign</p>
            <span className="inline-block rounded-md px-4 py-2 text-sm font-semibold text-white" style={{ backgroundColor: preview.mark.color }}>
              Review and sign
            </span>
            {preview.footer || preview.support ? (
              <p className="border-t border-slate-200 pt-2 text-xs text-slate-600">
                {[preview.support ? `Questions? ${preview.support}` : null, preview.footer].filter(Boolean).join(" · ")}
              </p>
            ) : null}
          </div>
        </div>
      </div>
      <div>
        <h3 className="mb-1 text-sm font-medium text-slate-700">The invitation email</h3>
        <dl className="mb-2 grid grid-cols-[auto_1fr] gap-x-3 text-sm">
          <dt className="text-slate-600">From</dt>
          <dd className="break-all text-slate-900">{preview.email.from}</dd>
          <dt className="text-slate-600">Reply to</dt>
          <dd className="break-all text-slate-900">{preview.email.replyTo ?? "— (set a support email)"}</dd>
          <dt className="text-slate-600">Subject</dt>
          <dd className="text-slate-900">{preview.email.subject}</dd>
        </dl>
        {/* The email's own HTML, in a sandbox: no script, no same-origin access. */}
        <iframe title="Invitation email preview" sandbox="" srcDoc={preview.email.html} className="h-96 w-full rounded-md border border-slate-300 bg-white" />
      </div>
    </section>
  );
}
