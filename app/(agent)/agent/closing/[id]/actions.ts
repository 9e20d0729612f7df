"use server";

import { revalidatePath } from "next/cache";
import { getTranslations } from "next-intl/server";
import { prepareDatabase } from "@/lib/boot";
import { SCAN_UPLOAD_TYPES, uploadScanback } from "@/lib/closings/scanback";
import { AppError } from "@/lib/errors";
import { provenLinkHolder } from "@/lib/next/link-sessions";
import { readUploadedFiles } from "@/lib/uploads/read-uploaded-file";
import { requestEvidence } from "../../../../_lib/request-evidence";
import type { FormState } from "../../../../_lib/validated-action";

/**
 * The agent's "Upload and check": the same `uploadScanback` as the manager's form and POST
 * /v1/…/scanbacks, as the agent session of the form's package (an ended session is the form's message).
 * Once the page has hydrated the files went straight to storage (`upload-actions.ts`) and only their
 * `uploadIds` are posted, which must be this session's own uploads; before, the files themselves.
 */
export async function uploadAgentScansAction(_previous: FormState, formData: FormData): Promise<FormState> {
  const packageId = String(formData.get("packageId") ?? "").slice(0, 64);
  const { db } = await prepareDatabase();
  const principal = await provenLinkHolder(db, "agent", packageId);
  const t = await getTranslations("agent");
  if (!principal) return { status: "error", message: t("sessionEnded"), fieldErrors: {}, values: {} };
  const uploadIds = formData.getAll("uploadIds").filter((id): id is string => typeof id === "string" && id !== "");
  const inline = await Promise.all(
    formData
      .getAll("files")
      .filter((f): f is File => f instanceof File && f.size > 0)
      .map(async (f) => ({ name: f.name, bytes: new Uint8Array(await f.arrayBuffer()) })),
  );
  try {
    const uploaded = await readUploadedFiles(db, { principal, uploadIds, accept: SCAN_UPLOAD_TYPES });
    const files = [...uploaded, ...inline];
    const { ipAddress } = await requestEvidence();
    const result = await uploadScanback(db, { principal, packageId, files, ipAddress });
    revalidatePath(`/agent/closing/${packageId}`);
    if (result.scan.status !== "done") return { status: "ok", message: t("uploadQueued", { pages: result.pageCount }) };
    const mine = result.report.pages.filter((p) => p.uploadId === result.uploadId);
    const read = mine.filter((p) => p.status === "matched" || p.status === "duplicate").length;
    const unplaced = mine.length - read;
    return {
      status: "ok",
      message: t("uploadResult", { pages: result.pageCount, matched: read, unplaced }),
    };
  } catch (error) {
    if (error instanceof AppError) return { status: "error", message: error.message, fieldErrors: {}, values: {} };
    throw error;
  }
}
