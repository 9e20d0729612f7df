"use server";

import { revalidatePath } from "next/cache";
import { UpdateWorkspaceSettingsSchema } from "@/lib/api/schemas/workspace";
import { updateWorkspaceSettings } from "@/lib/workspace/update-workspace-settings";
import type { FormFields } from "../../../_lib/form-fields";
import { validatedAction, type FormState } from "../../../_lib/validated-action";


/** A number of days as typed: a number when it is one, else the text (the schema refuses it with a message). */
const days = (value: string) => (value === "" ? null : /^\d+$/.test(value) ? Number(value) : value);

/** The settings form in the API's PATCH shape: every field is sent, an empty one clears the setting. */
function settingsInput(_formData: FormData, fields: FormFields) {
  const text = (name: string) => (fields.text(name) ?? "").trim();
  return {
    name: text("name"),
    branding: { logoUrl: text("logoUrl") || null, brandColor: text("brandColor") || null },
    defaultFlowId: text("defaultFlowId") || null,
    reminderCadenceDays: days(text("reminderCadenceDays")),
    packageExpiryDays: days(text("packageExpiryDays")),
  };
}

export const updateSettingsAction = validatedAction(
  UpdateWorkspaceSettingsSchema,
  async (change, { db, principal, fields, evidence }): Promise<FormState> => {
    const organizationId = Number(fields.text("organizationId")?.trim());
    await updateWorkspaceSettings(db, { principal, organizationId, change, ipAddress: evidence.ipAddress });
    revalidatePath("/workspace", "layout");
    return { status: "ok", message: "Settings saved." };
  },
  { returnTo: "/workspace/settings", toInput: settingsInput },
);
