"use server";

import { z } from "zod";
import { publicAction } from "@/app/_lib/validated-action";
import { prepareDatabase } from "@/lib/boot";
import { AppError } from "@/lib/errors";
import { MAX_VERIFY_BYTES, verifySealedPdf } from "@/lib/seals/verify-sealed-pdf";
import type { VerifyState } from "./verify-state";

const FileSchema = z.instanceof(File, { message: "Choose a PDF file." }).refine((f) => f.size > 0, "Choose a PDF file.").refine((f) => f.size <= MAX_VERIFY_BYTES, `The PDF exceeds ${MAX_VERIFY_BYTES / 1024 / 1024} MiB.`);

/**
 * The /verify form's action: public (no sign-in, so not `validatedAction`), the file checked by
 * `verifySealedPdf` and nothing stored. Only the outcome and what the file itself prints come back.
 */
export async function verifyAction(previous: VerifyState, formData: FormData): Promise<VerifyState> {
  return verify(previous, formData);
}

const verify = publicAction<VerifyState>(async ({ formData, evidence }) => {
  const parsed = FileSchema.safeParse(formData.get("file"));
  if (!parsed.success) return { status: "error", message: parsed.error.issues[0]!.message };
  try {
    const { db } = await prepareDatabase();
    const bytes = new Uint8Array(await parsed.data.arrayBuffer());
    const result = await verifySealedPdf(db, { bytes, clientIp: evidence.ipAddress });
    return {
      status: "ok",
      fileName: parsed.data.name.slice(0, 200),
      result: result.outcome === "sealed" ? { ...result, sealedAt: result.sealedAt.toISOString(), trustedTime: result.trustedTime?.toISOString() ?? null } : result,
    };
  } catch (error) {
    if (error instanceof AppError) return { status: "error", message: error.message.replace(/^file: (.)/, (_, first: string) => first.toUpperCase()) };
    throw error;
  }
});
