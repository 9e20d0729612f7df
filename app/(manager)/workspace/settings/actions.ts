"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { UpdateWorkspaceSettingsSchema } from "@/lib/api/schemas/workspace";
import { LOGO_MAX_BYTES, LOGO_TYPES } from "@/lib/branding/inspect-logo";
import { removeOrganizationLogo, setOrganizationLogo } from "@/lib/branding/organization-logo";
import { previewBrandingChange, type BrandPreview } from "@/lib/workspace/preview-branding";
import { readUploadedFile } from "@/lib/uploads/read-uploaded-file";
import { updateWorkspaceSettings } from "@/lib/workspace/update-workspace-settings";
import { replaceFramingOrigins } from "@/lib/embedded/allowed-origins";
import type { FormFields } from "../../../_lib/form-fields";
import { validatedAction, type FormState } from "../../../_lib/validated-action";

/** A number of days as typed: a number when it is one, else the text (the schema refuses it with a message). */
const days = (value: string) => (value === "" ? null : /^\d+$/.test(value) ? Number(value) : value);

/** The settings form in the API's PATCH shape: every field is sent, an empty one clears the setting. */
function settingsInput(_formData: FormData, fields: FormFields) {
  return {
    name: fields.text("name")?.trim() ?? "",
    branding: {
      logoUrl: fields.optionalText("logoUrl"),
      brandColor: fields.optionalText("brandColor"),
      displayName: fields.optionalText("displayName"),
      supportEmail: fields.optionalText("supportEmail"),
      supportPhone: fields.optionalText("supportPhone"),
      footer: fields.optionalText("footer"),
    },
    defaultFlowId: fields.optionalText("defaultFlowId"),
    defaultLanguage: fields.optionalText("defaultLanguage"),
    reminderCadenceDays: days(fields.text("reminderCadenceDays")?.trim() ?? ""),
    packageExpiryDays: days(fields.text("packageExpiryDays")?.trim() ?? ""),
  };
}

export type SettingsFormData = { preview: BrandPreview; values: Record<string, string> };

/** Saves the settings, or with `intent=preview` shows how borrowers would see the branding without saving. */
export const updateSettingsAction = validatedAction(
  UpdateWorkspaceSettingsSchema,
  async (change, { db, principal, formData, fields, evidence }): Promise<FormState<SettingsFormData>> => {
    const organizationId = Number(fields.text("organizationId"));
    if (fields.text("intent") === "preview") {
      const preview = await previewBrandingChange(db, { principal, organizationId, change });
      const values = Object.fromEntries([...formData.entries()].filter((e): e is [string, string] => typeof e[1] === "string" && !e[0].startsWith("$ACTION")));
      return { status: "ok", message: "Preview below. Nothing is saved yet.", data: { preview, values } };
    }
    await updateWorkspaceSettings(db, { principal, organizationId, change, ipAddress: evidence.ipAddress });
    revalidatePath("/workspace", "layout");
    return { status: "ok", message: "Settings saved." };
  },
  { returnTo: "/workspace/settings", toInput: settingsInput },
);

const OrganizationForm = z.object({ organizationId: z.coerce.number().int().positive() });

/** Uploads (replaces) the logo from the form's `logo` file input; the bytes are checked by the domain. */
export const uploadLogoAction = validatedAction(
  OrganizationForm,
  async ({ organizationId }, { db, principal, formData, evidence }): Promise<FormState> => {
    // Once the page has hydrated the logo went straight to storage and only its upload id is posted.
    const uploadId = formData.get("uploadId");
    let bytes: Uint8Array;
    if (typeof uploadId === "string" && uploadId !== "") {
      bytes = (await readUploadedFile(db, { principal, uploadId, accept: LOGO_TYPES })).bytes;
    } else {
      const file = formData.get("logo");
      if (!(file instanceof File) || file.size === 0) return { status: "error", message: "Choose a PNG or JPEG file to upload.", fieldErrors: { logo: "Choose a PNG or JPEG file to upload." }, values: {} };
      // Refused before reading it: the domain would say the same after.
      if (file.size > LOGO_MAX_BYTES) {
        const message = `The file is ${Math.ceil(file.size / 1024)} KiB; a logo may be at most ${LOGO_MAX_BYTES / 1024} KiB.`;
        return { status: "error", message, fieldErrors: { logo: message }, values: {} };
      }
      bytes = new Uint8Array(await file.arrayBuffer());
    }
    await setOrganizationLogo(db, { principal, organizationId, bytes, ipAddress: evidence.ipAddress });
    revalidatePath("/workspace", "layout");
    return { status: "ok", message: "Logo uploaded." };
  },
  { returnTo: "/workspace/settings" },
);

export const removeLogoAction = validatedAction(
  OrganizationForm,
  async ({ organizationId }, { db, principal, evidence }): Promise<FormState> => {
    await removeOrganizationLogo(db, { principal, organizationId, ipAddress: evidence.ipAddress });
    revalidatePath("/workspace", "layout");
    return { status: "ok", message: "Logo removed." };
  },
  { returnTo: "/workspace/settings" },
);

const EmbedOriginsForm = z.object({ organizationId: z.coerce.number().int().positive(), origins: z.string().max(4000) });

/** Replaces the origins allowed to frame embedded signing, one a line (lib/embedded/allowed-origins.ts checks each). */
export const updateEmbedOriginsAction = validatedAction(
  EmbedOriginsForm,
  async ({ organizationId, origins }, { db, principal, evidence }): Promise<FormState> => {
    const list = origins.split(/\r?\n/).map((line) => line.trim()).filter(Boolean);
    const saved = await replaceFramingOrigins(db, { principal, organizationId, origins: list, ipAddress: evidence.ipAddress });
    revalidatePath("/workspace/settings");
    return { status: "ok", message: saved.origins.length ? `Saved: ${saved.origins.length} origin(s) may frame signing.` : "Saved: no site may frame signing." };
  },
  { returnTo: "/workspace/settings" },
);
