"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { ControlNoteSchema, OrganizationSlugSchema } from "@/lib/api/schemas/transferable-records";
import {
  acceptTransfer,
  convertToPaper,
  declineTransfer,
  offerTransfer,
  pledgeRecord,
  releasePledge,
  withdrawTransfer,
} from "@/lib/transferable-records/change-control";
import { validatedAction, type FormState } from "../../_lib/validated-action";

const PATH = "/vault";
const RecordId = z.object({ recordId: z.uuid() });

const DONE = {
  accept: "Control accepted: your organization now controls this record.",
  decline: "Offer declined.",
  withdraw: "Offer withdrawn.",
  release: "Pledge released.",
  paper_out: "Converted to paper: the electronic authoritative copy is retired.",
} as const;

/** Offer control of a record to another organization, or pledge it: the `/v1` body (organization, note) plus the record. */
export const offerOrPledgeAction = validatedAction(
  RecordId.extend(ControlNoteSchema.shape).extend({ organization: OrganizationSlugSchema, op: z.enum(["offer", "pledge"]) }),
  async ({ recordId, organization, note, op }, { db, principal, evidence }): Promise<FormState> => {
    const options = { principal, recordId, toOrganization: organization, note, ipAddress: evidence.ipAddress };
    const record = op === "offer" ? await offerTransfer(db, options) : await pledgeRecord(db, options);
    revalidatePath(PATH);
    // Named back, so the sender sees which organization the identifier they typed belongs to.
    return {
      status: "ok",
      message:
        op === "offer"
          ? `Transfer offered to ${record.pendingTransferee?.name ?? organization}: control passes when that organization accepts.`
          : `Record pledged to ${record.pledgee?.name ?? organization}.`,
    };
  },
  {
    returnTo: PATH,
    toInput: (_formData, fields) => ({
      recordId: fields.text("recordId"),
      op: fields.text("op"),
      organization: (fields.text("organization") ?? "").trim().toLowerCase(),
      ...(fields.text("note") ? { note: fields.text("note") } : {}),
    }),
  },
);

/** Accept, decline or withdraw a transfer, release a pledge, or convert to paper. */
export const controlAction = validatedAction(
  RecordId.extend(ControlNoteSchema.shape).extend({ op: z.enum(["accept", "decline", "withdraw", "release", "paper_out"]) }),
  async ({ recordId, note, op }, { db, principal, evidence }): Promise<FormState> => {
    const options = { principal, recordId, note, ipAddress: evidence.ipAddress };
    const run = { accept: acceptTransfer, decline: declineTransfer, withdraw: withdrawTransfer, release: releasePledge, paper_out: convertToPaper }[op];
    await run(db, options);
    revalidatePath(PATH);
    return { status: "ok", message: DONE[op] };
  },
  { returnTo: PATH, toInput: (_formData, fields) => ({ recordId: fields.text("recordId"), op: fields.text("op") }) },
);
