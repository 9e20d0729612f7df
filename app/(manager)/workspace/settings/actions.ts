"use server";

import { revalidatePath } from "next/cache";
import { UpdateWorkspaceSettingsSchema } from "@/lib/api/schemas/workspace";
import { updateWorkspaceSettings } from "@/lib/workspace/update-workspace-settings";
import { requestEvidence } from "../../../_lib/request-evidence";
import { validatedAction, type FormState } from "../../../_lib/validated-action";

const text = (formData: FormData, name: string) => {
  const value = formData.get(name);
  return typeof value === "string" ? value.trim() : "";
};

/** A number of days as typed: a number when it is one, else the text (the schema refuses it with a message). */
const days = (value: string) => (value === "" ? null : /^\d+$/.test(value) ? Number(value) : value);

/** The settings form in the API's PATCH shape: every field is sent, an empty one clears the setting. */
function settingsInput(formData: FormData) {
  return {
    name: text(formData, "name"),
    branding: { logoUrl: text(formData, "logoUrl") || null, brandColor: text(formData, "brandColor") || null },
    defaultFlowId: text(formData, "defaultFlowId") || null,
    reminderCadenceDays: days(text(formData, "reminderCadenceDays")),
    packageExpiryDays: days(text(formData, "packageExpiryDays")),
  };
}

export const updateSettingsAction = validatedAction(
  UpdateWorkspaceSettingsSchema,
  async (change, { db, principal, formData }): Promise<FormState> => {
    const organizationId = Number(text(formData, "organizationId"));
    await updateWorkspaceSettings(db, { principal, organizationId, change, ipAddress: (await requestEvidence()).ipAddress });
    revalidatePath("/workspace", "layout");
    return { status: "ok", message: "Settings saved." };
  },
  { returnTo: "/workspace/settings", toInput: settingsInput },
);
