import type { Metadata } from "next";
import Link from "next/link";
import { EnglishViewerText } from "@/components/pdf-viewer/english-viewer-text";
import { notFound } from "next/navigation";
import { z } from "zod";
import { DocumentsViewer } from "@/components/pdf-viewer/documents-viewer";
import { StatusBadge } from "@/components/status-badge";
import type { Db } from "@/db/client";
import type { ChattelDocument } from "@/db/schema";
import { hasCapability, type Principal } from "@/lib/auth/principal";
import { getChattelDocument } from "@/lib/chattel-documents/get-chattel-document";
import { listDocumentFiles } from "@/lib/chattel-documents/list-document-files";
import { listComments, type CommentWithAuthor } from "@/lib/comments/list-comments";
import { listMentionableMembers, type MentionableMember } from "@/lib/comments/list-mentionable-members";
import { AppError } from "@/lib/errors";
import { OUTREACH_PURPOSES, TEMPLATE_VARIABLES } from "@/lib/outreach/built-in-templates";
import { listOutreachMessages } from "@/lib/outreach/list-outreach-messages";
import { listOutreachReplies } from "@/lib/outreach/list-outreach-replies";
import { requirePrincipal } from "../../../_lib/require-principal";
import { DOCUMENT_STATUS_LABELS, DOCUMENT_TYPE_LABELS, PURPOSE_LABELS, RECIPIENT_KIND_LABELS, formatBytes } from "../_components/document-labels";
import { formatDateTime } from "@/lib/format";
import { loadOr404 } from "@/app/_lib/load-or-404";
import { listPlaceOptions } from "../_components/place-options";
import { CommentsPanel } from "./_components/comments-panel";
import { OutreachComposer } from "./_components/outreach-composer";
import { RefreshWhileQueued } from "./_components/refresh-while-queued";
import { UploadFileForm } from "./_components/upload-file-form";

export const metadata: Metadata = { title: "Document" };

type Params = { params: Promise<{ id: string }> };

const COMMENT_PAGES = 5;
const PAGE = 100;

async function loadDocument(db: Db, principal: Principal, id: string): Promise<ChattelDocument> {
  if (!z.uuid().safeParse(id).success) notFound();
  // A document outside the caller's reach is "not found" whether the domain says 404 or 403.
  return loadOr404(getChattelDocument(db, { principal, documentId: id }), { forbiddenToo: true });
}

/** Comments and the people to mention, or why there are none: no real-time service (503) or no right to read them. */
async function loadComments(
  db: Db,
  principal: Principal,
  documentId: string,
): Promise<{ state: "ok"; comments: CommentWithAuthor[]; members: MentionableMember[]; more: boolean } | { state: "unavailable" | "forbidden" }> {
  if (!hasCapability(principal, "comments:read")) return { state: "forbidden" };
  try {
    const comments: CommentWithAuthor[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < COMMENT_PAGES; i++) {
      const page = await listComments(db, { principal, documentId, limit: PAGE, cursor });
      comments.push(...page.rows);
      cursor = page.nextCursor ?? undefined;
      if (!cursor) break;
    }
    const members = hasCapability(principal, "comments:write") ? await listMentionableMembers(db, { principal, documentId }) : [];
    return { state: "ok", comments, members, more: cursor !== undefined };
  } catch (error) {
    if (error instanceof AppError && error.code === "unavailable") return { state: "unavailable" };
    throw error;
  }
}

function contactLabel(c: { name: string | null; email: string }): string {
  return c.name ? `${c.name} <${c.email}>` : c.email;
}

export default async function DocumentPage({ params }: Params) {
  const { id } = await params;
  const { db, principal } = await requirePrincipal(`/documents/${encodeURIComponent(id)}`);
  if (!hasCapability(principal, "documents:read")) {
    return (
      <div className="space-y-2">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Document</h1>
        <p className="max-w-2xl text-sm text-slate-700">Chattel documents are kept by the managers of an organization; your account has no manager role.</p>
      </div>
    );
  }
  const document = await loadDocument(db, principal, id);
  const canWrite = hasCapability(principal, "documents:write");
  const canReadOutreach = hasCapability(principal, "outreach:read");
  const [files, comments, outreach, places] = await Promise.all([
    listDocumentFiles(db, { principal, documentId: document.id, limit: PAGE }),
    loadComments(db, principal, document.id),
    canReadOutreach ? listOutreachMessages(db, { principal, documentId: document.id, limit: 50 }) : null,
    canWrite ? listPlaceOptions(db, principal) : [],
  ]);
  const replies = outreach
    ? await listOutreachReplies(db, { principal, documentId: document.id, messageIds: outreach.rows.map((m) => m.id) })
    : [];

  const placeValue = document.locationId
    ? `location:${document.locationId}`
    : document.companyId
      ? `company:${document.companyId}`
      : `organization:${document.organizationId}`;
  const place = places.flatMap((g) => g.options.map((o) => ({ ...o, organization: g.organization }))).find((o) => o.value === placeValue);
  const fileUrl = (fileId: string) => `/documents/${document.id}/files/${fileId}`;
  const pdfs = files.rows.filter((f) => f.contentType === "application/pdf");
  const images = files.rows.filter((f) => f.contentType.startsWith("image/"));
  const collateral = [document.collateralYear, document.collateralMake, document.collateralModel].filter(Boolean).join(" ");

  const recipients = [
    ...(document.borrowerEmail ? [{ value: `borrower|${document.borrowerEmail}`, label: `Borrower: ${contactLabel({ name: document.borrowerName, email: document.borrowerEmail })}` }] : []),
    ...document.coBorrowers.map((c) => ({ value: `co_borrower|${c.email}`, label: `Co-borrower: ${contactLabel(c)}` })),
    ...document.dealerContacts.map((c) => ({ value: `dealer_contact|${c.email}`, label: `Dealer contact: ${contactLabel(c)}` })),
  ];

  return (
    <div className="space-y-8">
      <div className="space-y-2">
        <p className="text-sm">
          <Link href="/documents" className="font-medium text-blue-800 underline-offset-2 hover:underline">
            Documents
          </Link>
        </p>
        <div className="flex flex-wrap items-center gap-3">
          <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{document.title}</h1>
          <StatusBadge status={document.status} />
        </div>
        <p className="text-sm text-slate-700">
          {DOCUMENT_TYPE_LABELS[document.type]} · {DOCUMENT_STATUS_LABELS[document.status]} · updated {formatDateTime(document.updatedAt)}
        </p>
      </div>

      <div className="grid gap-8 lg:grid-cols-[minmax(0,1fr)_24rem]">
        <div className="min-w-0 space-y-8">
          <section aria-labelledby="details-heading" className="space-y-3 rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
            <h2 id="details-heading" className="text-lg font-semibold text-slate-900">
              Details
            </h2>
            <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-[10rem_1fr]">
              <dt className="text-slate-700">Place</dt>
              <dd className="text-slate-900">
                {place ? (place.value.startsWith("organization:") ? place.organization : `${place.label}, ${place.organization}`) : document.locationId ? "A location of your organization" : "Your organization"}
              </dd>
              <dt className="text-slate-700">Signing package</dt>
              <dd className="text-slate-900">
                {document.signingPackageId ? (
                  <Link href={`/signings/${document.signingPackageId}`} className="font-medium text-blue-800 underline-offset-2 hover:underline">
                    Open the signing package
                  </Link>
                ) : (
                  "None"
                )}
              </dd>
              <dt className="text-slate-700">Borrower</dt>
              <dd className="text-slate-900">{document.borrowerEmail ? contactLabel({ name: document.borrowerName, email: document.borrowerEmail }) : (document.borrowerName ?? "—")}</dd>
              <dt className="text-slate-700">Co-borrowers</dt>
              <dd className="text-slate-900">{document.coBorrowers.length > 0 ? document.coBorrowers.map(contactLabel).join("; ") : "—"}</dd>
              <dt className="text-slate-700">Dealer contacts</dt>
              <dd className="text-slate-900">{document.dealerContacts.length > 0 ? document.dealerContacts.map(contactLabel).join("; ") : "—"}</dd>
              <dt className="text-slate-700">Collateral</dt>
              <dd className="text-slate-900">
                {collateral || (document.collateralSerial ? "" : "—")}
                {document.collateralSerial ? (
                  <span>
                    {collateral ? " · " : ""}serial <span className="font-mono text-xs">{document.collateralSerial}</span>
                  </span>
                ) : null}
              </dd>
              {document.notes ? (
                <>
                  <dt className="text-slate-700">Notes</dt>
                  <dd className="whitespace-pre-wrap text-slate-900">{document.notes}</dd>
                </>
              ) : null}
            </dl>
          </section>

          <section aria-labelledby="files-heading" className="space-y-4 rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
            <h2 id="files-heading" className="text-lg font-semibold text-slate-900">
              Files
            </h2>
            {files.rows.length === 0 ? (
              <p className="text-sm text-slate-700">No files yet.{canWrite ? " Upload the scan or PDF you received." : ""}</p>
            ) : (
              <ul className="divide-y divide-slate-100 rounded-md border border-slate-200" aria-label="Files of this document">
                {files.rows.map((f) => (
                  <li key={f.id} className="flex flex-wrap items-center justify-between gap-2 px-3 py-2 text-sm">
                    <span className="min-w-0 break-all font-medium text-slate-900">{f.fileName}</span>
                    <span className="flex items-center gap-3 text-slate-700">
                      <span>
                        {f.contentType === "application/pdf" ? "PDF" : f.contentType === "image/png" ? "PNG" : "JPEG"}, {formatBytes(f.sizeBytes)}, {formatDateTime(f.createdAt)}
                      </span>
                      <a href={`${fileUrl(f.id)}?download=1`} className="font-medium text-blue-800 underline-offset-2 hover:underline" aria-label={`Download ${f.fileName}`}>
                        Download
                      </a>
                    </span>
                  </li>
                ))}
              </ul>
            )}
            {canWrite ? <UploadFileForm documentId={document.id} /> : null}
          </section>

          {files.rows.length > 0 ? (
            <section aria-labelledby="preview-heading" className="space-y-4">
              <h2 id="preview-heading" className="text-lg font-semibold text-slate-900">
                Preview
              </h2>
              {images.map((f) => (
                <figure key={f.id} className="space-y-2 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
                  {/* eslint-disable-next-line @next/next/no-img-element -- a private, per-user file: no image optimiser cache */}
                  <img src={fileUrl(f.id)} alt={`Preview of ${f.fileName}`} className="mx-auto max-h-[36rem] w-auto max-w-full" loading="lazy" />
                  <figcaption className="text-center text-sm text-slate-700">{f.fileName}</figcaption>
                </figure>
              ))}
              {pdfs.length > 0 ? (
                <EnglishViewerText>
                  <DocumentsViewer
                    documents={pdfs.map((f) => ({ id: f.id, name: f.fileName, pageCount: null, fileUrl: fileUrl(f.id), downloadUrl: `${fileUrl(f.id)}?download=1` }))}
                  />
                </EnglishViewerText>
              ) : null}
            </section>
          ) : null}
        </div>

        <section aria-labelledby="comments-heading" className="min-w-0 space-y-4 self-start rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
          <h2 id="comments-heading" className="text-lg font-semibold text-slate-900">
            Comments
          </h2>
          {comments.state === "ok" ? (
            <>
              <CommentsPanel
                documentId={document.id}
                currentUserId={principal.user.id}
                canWrite={hasCapability(principal, "comments:write")}
                members={comments.members}
                comments={comments.comments.map((c) => ({
                  id: c.id,
                  parentId: c.parentId,
                  authorUserId: c.authorUserId,
                  authorName: c.authorName,
                  body: c.body,
                  mentionedUserIds: c.mentionedUserIds,
                  createdAt: c.createdAt.toISOString(),
                  createdLabel: formatDateTime(c.createdAt),
                  edited: c.editedAt !== null,
                }))}
              />
              {comments.more ? <p className="text-xs text-slate-700">Only the first {COMMENT_PAGES * PAGE} comments are shown.</p> : null}
            </>
          ) : comments.state === "unavailable" ? (
            <p className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950" role="note">
              Comments are unavailable: they need the real-time service, which is not configured on this server (REALTIME_URL). The rest of the
              document works as usual.
            </p>
          ) : (
            <p className="text-sm text-slate-700">Your role does not include reading comments.</p>
          )}
        </section>
      </div>

      {outreach ? (
        <section aria-labelledby="outreach-heading" className="space-y-6 rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
          <div className="space-y-1">
            <h2 id="outreach-heading" className="text-lg font-semibold text-slate-900">
              Outreach
            </h2>
            <p className="text-sm text-slate-700">Email the borrower, a co-borrower or a dealer contact about this document. Replies arrive here.</p>
          </div>
          {hasCapability(principal, "outreach:write") ? (
            <OutreachComposer
              documentId={document.id}
              recipients={recipients}
              purposes={OUTREACH_PURPOSES.map((p) => ({ value: p, label: PURPOSE_LABELS[p] }))}
              variables={[...TEMPLATE_VARIABLES]}
            />
          ) : null}
          <div className="space-y-3">
            <h3 className="text-base font-semibold text-slate-900">History</h3>
            <RefreshWhileQueued queued={outreach.rows.some((m) => m.status === "queued")} />
            {outreach.rows.length === 0 ? (
              <p className="text-sm text-slate-700">No messages yet.</p>
            ) : (
              <ol className="space-y-3" aria-label="Outreach history, newest first">
                {outreach.rows.map((m) => {
                  const thread = replies.filter((r) => r.outreachMessageId === m.id);
                  return (
                    <li key={m.id} className="rounded-md border border-slate-200 p-4">
                      <article aria-label={`Message: ${m.subject}`} className="space-y-2 text-sm">
                        <div className="flex flex-wrap items-center gap-2">
                          <StatusBadge status={m.status} />
                          <span className="font-medium text-slate-900">{m.subject}</span>
                        </div>
                        <p className="text-slate-700">
                          To {RECIPIENT_KIND_LABELS[m.recipientKind].toLowerCase()} {contactLabel({ name: m.recipientName, email: m.recipientEmail })} ·{" "}
                          {PURPOSE_LABELS[m.purpose]} · queued {formatDateTime(m.createdAt)}
                          {m.sentAt ? ` · sent ${formatDateTime(m.sentAt)}` : ""}
                        </p>
                        {m.status === "failed" && m.lastError ? <p className="text-red-800">Not delivered: {m.lastError}</p> : null}
                        {m.status === "queued" && m.lastError ? <p className="text-amber-900">Retrying after: {m.lastError}</p> : null}
                        <details>
                          <summary className="cursor-pointer font-medium text-blue-800">Show the message</summary>
                          <pre className="mt-2 whitespace-pre-wrap rounded bg-slate-50 p-3 font-sans text-sm text-slate-900">{m.body}</pre>
                        </details>
                        {thread.length > 0 ? (
                          <ol className="space-y-2 border-l-2 border-emerald-300 pl-4" aria-label={`Replies to ${m.subject}`}>
                            {thread.map((r) => (
                              <li key={r.id}>
                                <p className="text-slate-700">
                                  Reply from {r.from ?? "unknown sender"} · {formatDateTime(r.receivedAt)}
                                </p>
                                <pre className="whitespace-pre-wrap font-sans text-sm text-slate-900">{r.text || "(no text)"}</pre>
                              </li>
                            ))}
                          </ol>
                        ) : null}
                      </article>
                    </li>
                  );
                })}
              </ol>
            )}
          </div>
        </section>
      ) : null}
    </div>
  );
}
