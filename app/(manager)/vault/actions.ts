"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { ControlNoteSchema, OrganizationTargetSchema } from "@/lib/api/schemas/transferable-records";
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

/** Offer control of a record to another organization, or pledge it: the `/v1` body (organizationId, note) plus the record. */
export const offerOrPledgeAction = validatedAction(
  RecordId.extend(OrganizationTargetSchema.shape).extend({ op: z.enum(["offer", "pledge"]) }),
  async ({ recordId, organizationId, note, op }, { db, principal, evidence }): Promise<FormState> => {
    const options = { principal, recordId, toOrganizationId: organizationId, note, ipAddress: evidence.ipAddress };
    if (op === "offer") await offerTransfer(db, options);
    else await pledgeRecord(db, options);
    revalidatePath(PATH);
    return { status: "ok", message: op === "offer" ? "Transfer offered: control passes when the other organization accepts." : "Record pledged." };
  },
  {
    returnTo: PATH,
    toInput: (_formData, fields) => ({
      recordId: fields.text("recordId"),
      op: fields.text("op"),
      organizationId: fields.int("organizationId"),
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
