"use server";

import { getTranslations } from "next-intl/server";
import { CreateUploadSchema } from "@/lib/api/schemas/uploads";
import { describeIssues } from "@/lib/api/validation";
import { prepareDatabase } from "@/lib/boot";
import { AppError } from "@/lib/errors";
import { provenLinkHolder } from "@/lib/next/link-sessions";
import { createUpload, type UploadTarget } from "@/lib/uploads/create-upload";
import { verifyUpload } from "@/lib/uploads/verify-upload";

type Refused = { ok: false; error: string };

const refused = (error: unknown): Refused => {
  if (error instanceof AppError) return { ok: false, error: error.message };
  throw error;
};

/** The agent session of the package, or the translated "session ended" refusal. */
async function agentOf(packageId: string) {
  const { db } = await prepareDatabase();
  const principal = await provenLinkHolder(db, "agent", String(packageId).slice(0, 64));
  if (principal) return { db, principal };
  const t = await getTranslations("agent");
  return { refused: { ok: false, error: t("sessionEnded") } as Refused };
}

/**
 * The first step of a scan uploaded straight to storage from the settlement agent's page (the same
 * `createUpload` as `POST /v1/uploads`), as the agent session of the package: the upload is that
 * session's link's, attachable only by it. No file passes through a server action.
 */
export async function startAgentScanUpload(packageId: string, declared: unknown): Promise<{ ok: true; id: string; put: UploadTarget } | Refused> {
  const agent = await agentOf(packageId);
  if ("refused" in agent) return agent.refused!;
  const parsed = CreateUploadSchema.safeParse(declared);
  if (!parsed.success) return { ok: false, error: describeIssues(parsed.error) };
  try {
    const { id, put } = await createUpload(agent.db, { principal: agent.principal, name: parsed.data.name, sizeBytes: parsed.data.size, contentType: parsed.data.contentType, sha256: parsed.data.sha256 });
    return { ok: true, id, put };
  } catch (error) {
    return refused(error);
  }
}

/** The last step: the server checks what arrived (`verifyUpload`, as `POST /v1/uploads/{id}/complete`). */
export async function completeAgentScanUpload(packageId: string, uploadId: unknown): Promise<{ ok: true; pageCount: number } | Refused> {
  const agent = await agentOf(packageId);
  if ("refused" in agent) return agent.refused!;
  if (typeof uploadId !== "string") return { ok: false, error: "Missing the upload id." };
  try {
    const upload = await verifyUpload(agent.db, { principal: agent.principal, uploadId });
    return { ok: true, pageCount: upload.pageCount ?? 0 };
  } catch (error) {
    return refused(error);
  }
}
