import { BrandHeader } from "@/components/brand/brand-header";
import type { BrandPreview } from "@/lib/workspace/preview-branding";

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
        {/* The email's own HTML body, as lib/email renders it (every value in it is escaped there). Not
            a sandboxed frame: accessibility checkers and screen readers cannot enter one. */}
        <div
          role="group"
          aria-label="Invitation email preview"
          className="max-h-96 overflow-auto rounded-md border border-slate-300 bg-white p-4"
          dangerouslySetInnerHTML={{ __html: emailBody(preview.email.html) }}
        />
      </div>
    </section>
  );
}

/** The inside of the email's `<body>` (its doctype, head and body tags do not belong in a page). */
function emailBody(html: string): string {
  const match = /<body[^>]*>([\s\S]*)<\/body>/i.exec(html);
  return match ? match[1]! : "";
}
