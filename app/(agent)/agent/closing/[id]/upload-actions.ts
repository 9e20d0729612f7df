"use server";

import { getTranslations } from "next-intl/server";
import { completeUploadAs, startUploadAs, type UploadRefused } from "@/app/_lib/direct-upload-steps";
import { prepareDatabase } from "@/lib/boot";
import { provenLinkHolder } from "@/lib/next/link-sessions";
import type { UploadTarget } from "@/lib/uploads/create-upload";

/** The agent session of the package, or the translated "session ended" refusal. */
async function agentOf(packageId: string) {
  const { db } = await prepareDatabase();
  const principal = await provenLinkHolder(db, "agent", String(packageId).slice(0, 64));
  if (principal) return { db, principal };
  const t = await getTranslations("agent");
  return { refused: { ok: false, error: t("sessionEnded") } as UploadRefused };
}

/**
 * The first step of a scan uploaded straight to storage from the settlement agent's page (the same
 * `createUpload` as `POST /v1/uploads`), as the agent session of the package: the upload is that
 * session's link's, attachable only by it. No file passes through a server action.
 */
export async function startAgentScanUpload(packageId: string, declared: unknown): Promise<{ ok: true; id: string; put: UploadTarget } | UploadRefused> {
  const agent = await agentOf(packageId);
  if ("refused" in agent) return agent.refused!;
  return startUploadAs(agent.db, agent.principal, declared);
}

/** The last step: the server checks what arrived (`verifyUpload`, as `POST /v1/uploads/{id}/complete`). */
export async function completeAgentScanUpload(packageId: string, uploadId: unknown): Promise<{ ok: true; pageCount: number } | UploadRefused> {
  const agent = await agentOf(packageId);
  if ("refused" in agent) return agent.refused!;
  return completeUploadAs(agent.db, agent.principal, uploadId);
}
