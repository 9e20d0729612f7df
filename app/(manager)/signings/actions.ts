"use server";

import { SigningIdParamSchema } from "@/lib/api/schemas/signings";
import { remindSigners } from "@/lib/signings/remind-signers";
import { validatedAction, type FormState } from "../../_lib/validated-action";

/** "Remind" on a row of the list: the same domain function as POST /v1/signing/manager/signings/{id}/remind. */
export const remindAction = validatedAction(
  SigningIdParamSchema,
  async ({ id }, { db, principal, evidence }): Promise<FormState> => {
    const result = await remindSigners(db, { principal, packageId: id, ipAddress: evidence.ipAddress });
    const sent = result.remindedSignerIds.length;
    const again = result.alreadyRemindedSignerIds.length;
    if (sent > 0) return { status: "ok", message: `Reminder sent to ${sent} ${sent === 1 ? "signer" : "signers"}.` };
    if (again > 0) return { status: "ok", message: "Already reminded within the last hour; nobody was emailed again." };
    return { status: "ok", message: "Nobody is waiting to sign right now." };
  },
  { returnTo: "/signings" },
);
