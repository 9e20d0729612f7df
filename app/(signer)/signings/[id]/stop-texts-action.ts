"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { AppError } from "@/lib/errors";
import { stopMyTexts } from "@/lib/sms/my-texts";
import { contextAction } from "../../../_lib/validated-action";

export type StopTextsState = { status: "idle" } | { status: "error"; message: string };

/** "Stop text messages" (`stopMyTexts`), then the page again, which then says texts are stopped. */
export async function stopTextsAction(signingId: string, previous: StopTextsState, formData: FormData): Promise<StopTextsState> {
  const path = `/signings/${encodeURIComponent(signingId)}`;
  const stop = contextAction<StopTextsState>(
    async ({ db, principal, evidence }) => {
      try {
        await stopMyTexts(db, { principal, packageId: signingId, ipAddress: evidence.ipAddress });
      } catch (error) {
        if (error instanceof AppError && error.code !== "unauthorized") return { status: "error", message: error.message };
        throw error;
      }
      revalidatePath(path);
      redirect(path);
    },
    { returnTo: path, signerOf: () => signingId },
  );
  return stop(previous, formData);
}
