"use server";

import { revalidatePath } from "next/cache";
import { scanReviewSchema } from "@/lib/closings/review-document-scan";
import { appointmentFromForm } from "@/lib/closings/closing-appointment";
import { setDocumentExecutionMode, updateClosingAppointment } from "@/lib/closings/closing-detail";
import { convertPackageToInk } from "@/lib/closings/convert-to-ink";
import { reviewDocumentScan } from "@/lib/closings/review-document-scan";
import { acceptScanback, assignScanbackPage, discardScanbackPage, SCAN_UPLOAD_TYPES, uploadScanback, type ScanbackAssignment } from "@/lib/closings/scanback";
import { AppError } from "@/lib/errors";
import { readUploadedFiles } from "@/lib/uploads/read-uploaded-file";
import { issueAgentLink } from "@/lib/settlement-agent/issue-agent-link";
import { revokeAgentLink } from "@/lib/settlement-agent/revoke-agent-link";
import { contextAction, errorState, type ActionContext, type FormState } from "../../../../_lib/validated-action";

const returnTo = (formData: FormData) => `/signings/${String(formData.get("signingId") ?? "")}/closing`;

/** Runs one closing step for the form's package and refreshes the closing page; a refusal is the form's message. */
function closingAction(step: (signingId: string, context: ActionContext) => Promise<string>) {
  return contextAction<FormState>(
    async (context) => {
      const signingId = String(context.formData.get("signingId") ?? "");
      try {
        const message = await step(signingId, context);
        revalidatePath(`/signings/${signingId}/closing`);
        revalidatePath(`/signings/${signingId}`);
        return { status: "ok", message };
      } catch (error) {
        if (error instanceof AppError) return errorState(error, context.formData);
        throw error;
      }
    },
    { returnTo },
  );
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * "Upload scans": the same `uploadScanback` as POST /v1/…/scanbacks. Nothing is attached yet. Once the
 * page has hydrated the files went straight to storage and only their `uploadIds` are posted; before,
 * the files themselves (the small-file path).
 */
export const uploadScansAction = closingAction(async (signingId, { db, principal, formData, evidence }) => {
  const uploadIds = formData.getAll("uploadIds").filter((id): id is string => typeof id === "string" && id !== "");
  const uploaded = await readUploadedFiles(db, { principal, uploadIds, accept: SCAN_UPLOAD_TYPES });
  const inline = await Promise.all(
    formData
      .getAll("files")
      .filter((f): f is File => f instanceof File && f.size > 0)
      .map(async (f) => ({ name: f.name, bytes: new Uint8Array(await f.arrayBuffer()) })),
  );
  const files = [...uploaded, ...inline];
  const result = await uploadScanback(db, { principal, packageId: signingId, files, ipAddress: evidence.ipAddress });
  if (result.scan.status !== "done") {
    return `Stored ${plural(result.pageCount, "page")}; they are being read now. The progress shows below, and the report once every page is read.`;
  }
  const mine = result.report.pages.filter((p) => p.uploadId === result.uploadId);
  const read = mine.filter((p) => p.status === "matched" || p.status === "duplicate").length;
  return `Read ${plural(result.pageCount, "page")}: ${read} matched${mine.length - read > 0 ? `, ${mine.length - read} need a look` : ""}. Check the report below, then attach.`;
});

/** "Attach pages": every ready document gets its scan and awaits review. */
export const acceptScansAction = closingAction(async (signingId, { db, principal, evidence }) => {
  const { attached } = await acceptScanback(db, { principal, packageId: signingId, ipAddress: evidence.ipAddress });
  return `Attached ${attached.map((d) => d.name).join(", ")}; ${attached.length === 1 ? "it awaits" : "they await"} your review.`;
});

export const assignPageAction = closingAction(async (signingId, { db, principal, formData, evidence }) => {
  const pageId = String(formData.get("pageId") ?? "");
  const documentId = String(formData.get("documentId") ?? "");
  const pageNumber = Number(formData.get("pageNumber") ?? "");
  const rotation = Number(formData.get("rotation") ?? 0) as ScanbackAssignment["rotation"];
  await assignScanbackPage(db, { principal, packageId: signingId, pageId, assignment: { documentId, pageNumber, rotation }, ipAddress: evidence.ipAddress });
  return rotation ? `Page assigned as page ${pageNumber} and turned ${rotation}° clockwise.` : `Page assigned as page ${pageNumber}.`;
});

export const discardPageAction = closingAction(async (signingId, { db, principal, formData, evidence }) => {
  await discardScanbackPage(db, { principal, packageId: signingId, pageId: String(formData.get("pageId") ?? ""), ipAddress: evidence.ipAddress });
  return "Page discarded.";
});

/** Accept or reject a document's scan (reject needs a reason): the same `reviewDocumentScan` as /v1. */
export const reviewScanAction = closingAction(async (signingId, { db, principal, formData, evidence }) => {
  const parsed = scanReviewSchema.safeParse({ decision: formData.get("decision"), reason: formData.get("reason") || undefined });
  if (!parsed.success) throw new AppError("bad_request", "Give a reason to reject the scan: the settlement agent reads it.");
  const { document, signing } = await reviewDocumentScan(db, {
    principal,
    packageId: signingId,
    documentId: String(formData.get("documentId") ?? ""),
    review: parsed.data,
    ipAddress: evidence.ipAddress,
  });
  if (parsed.data.decision === "reject") return `Scan of ${document.name} rejected; upload a new scan of it.`;
  return signing.status === "completed" ? `Scan of ${document.name} accepted. The package is complete.` : `Scan of ${document.name} accepted.`;
});

export const convertToInkAction = closingAction(async (signingId, { db, principal, evidence }) => {
  const converted = await convertPackageToInk(db, { principal, packageId: signingId, ipAddress: evidence.ipAddress });
  if (converted.length === 0) return "No document was left to e-sign; nothing changed.";
  return `${converted.map((d) => d.name).join(", ")} will be signed in ink at the table; download the packet again.`;
});

/** "Save appointment": the same `updateClosingAppointment` as PATCH /v1/…/closing. */
export const appointmentAction = closingAction(async (signingId, { db, principal, formData, evidence }) => {
  await updateClosingAppointment(db, {
    principal,
    packageId: signingId,
    appointment: appointmentFromForm(formData),
    ipAddress: evidence.ipAddress,
  });
  return "Appointment saved.";
});

/** "Save how documents are signed" on a draft: one `setDocumentExecutionMode` per changed document. */
export const executionModesAction = closingAction(async (signingId, { db, principal, formData, evidence }) => {
  let changed = 0;
  for (const [key, value] of formData.entries()) {
    if (!key.startsWith("mode.") || typeof value !== "string") continue;
    if (formData.get(`was.${key.slice(5)}`) === value) continue;
    await setDocumentExecutionMode(db, { principal, packageId: signingId, documentId: key.slice(5), executionMode: value as never, ipAddress: evidence.ipAddress });
    changed += 1;
  }
  return changed === 0 ? "Nothing changed." : `Saved how ${changed === 1 ? "1 document is" : `${changed} documents are`} signed.`;
});

/** "Email the link to the settlement agent": the same `issueAgentLink` as POST /v1/…/settlement-agent-link. */
export const issueAgentLinkAction = closingAction(async (signingId, { db, principal, fields, evidence }) => {
  const link = await issueAgentLink(db, {
    principal,
    packageId: signingId,
    input: { agentName: fields.text("agentName") ?? "", agentEmail: fields.text("agentEmail") ?? "" },
    ipAddress: evidence.ipAddress,
  });
  return `Link emailed to ${link.agentName} (${link.agentEmail}); any older link no longer works.`;
});

/** "Revoke the link": the same `revokeAgentLink` as DELETE /v1/…/settlement-agent-link. */
export const revokeAgentLinkAction = closingAction(async (signingId, { db, principal, evidence }) => {
  await revokeAgentLink(db, { principal, packageId: signingId, ipAddress: evidence.ipAddress });
  return "Link revoked: the settlement agent can no longer open the closing.";
});
