import type { SigningPackage } from "@/db/schema";
import { Conflict } from "@/lib/errors";

/** 409 unless the package is still a draft: signers, documents and settings are frozen once sent. */
export function assertDraft(signing: Pick<SigningPackage, "status">, action: string): void {
  if (signing.status !== "draft") {
    throw Conflict(`Only a draft signing package can ${action}; this one is ${signing.status.replace("_", " ")}.`);
  }
}
