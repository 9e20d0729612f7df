"use server";

import { redirect } from "next/navigation";
import { parseAttachmentRequestLines } from "@/lib/attachments/attachment-request-schema";
import { SigningFormSchema } from "@/lib/api/schemas/signings";
import { appointmentFromForm } from "@/lib/closings/closing-appointment";
import { isUuid } from "@/lib/ids";
import { saveSigningDraft } from "@/lib/signings/save-signing-draft";
import { getTemplateOrThrow } from "@/lib/templates/get-template-or-throw";
import { requirePrincipal } from "../../../_lib/require-principal";
import { errorState, formDataToObject, validatedAction, type FormState } from "../../../_lib/validated-action";
import {
  isBlankRow,
  parseRowIntent,
  signerRowsFromValues,
  signerRowsReducer,
  signerRowsToValues,
  type RoleTemplate,
  type RowButtonAction,
  type SignerRowAction,
} from "./signer-rows";
import type { SignerRow } from "./types";

/** What the form gets back: on a row round trip (no JavaScript) the values to render again. */
export type SigningFormState = FormState<{ values: Record<string, string> }>;

const returnTo = (formData: FormData) => {
  const id = formData.get("signingId");
  return typeof id === "string" && isUuid(id) ? `/signings/${id}/edit` : "/signings/new";
};

function stringValues(formData: FormData): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [key, value] of Object.entries(formDataToObject(formData))) values[key] = Array.isArray(value) ? value[0]! : value;
  return values;
}

/** The signers the manager filled in, in order, with the ids of existing ones. */
function filledRows(formData: FormData): SignerRow[] {
  return signerRowsFromValues(stringValues(formData)).filter((row) => !isBlankRow(row));
}

const optional = (value: FormDataEntryValue | null) => (typeof value === "string" && value.trim() !== "" ? value : undefined);

/**
 * The form as the API's create request (`SigningFormSchema`: CreateSigningSchema's fields and rules,
 * rows with their draft ids), so both check the same rules.
 */
function toCreateRequest(formData: FormData) {
  const location = optional(formData.get("locationId"));
  return {
    locationId: location === undefined ? undefined : /^\d+$/.test(location) ? Number(location) : location,
    title: optional(formData.get("title")),
    message: optional(formData.get("message")),
    templateId: optional(formData.get("templateId")),
    flowId: optional(formData.get("flowId")),
    signerAuthMethod: optional(formData.get("signerAuthMethod")),
    signers: filledRows(formData).map((row) => ({
      ...(row.id ? { id: row.id } : {}),
      name: row.name,
      email: row.email,
      role: row.role,
      routingOrder: /^\d+$/.test(row.routingOrder) ? Number(row.routingOrder) : row.routingOrder,
      ...(row.authMethod ? { authMethod: row.authMethod } : {}),
      ...(row.accessCode?.trim() ? { accessCode: row.accessCode } : {}),
      // The mobile number (for sms_code and for texts), and the manager's attestation of the signer's consent to texts.
      ...(row.phone?.trim() ? { phone: row.phone.trim() } : {}),
      ...(row.smsConsent ? { smsConsent: true } : {}),
      // Says a code is stored, so the empty (write-only) input may stay empty; the save checks the stored one.
      ...(row.id && row.keepsAccessCode === "1" ? { keepsAccessCode: true } : {}),
      // Empty: the organization's default language.
      language: row.language || null,
      // One request per line; an empty box asks for none (on a draft: removes the signer's requests).
      attachments: parseAttachmentRequestLines(row.attachments ?? "", /\r?\n/),
    })),
    // Hybrid closings: how each attached document (`documentMode.<id>`) and each added PDF (`fileModes`, in order) is executed.
    documentModes: modesByPrefix(formData, "documentMode."),
    // Transferable records: every attached document shows its checkbox (`transferableShown`); ticked ones post `transferableDocument`.
    documentTransferable: Object.fromEntries(
      formData.getAll("transferableShown").filter((v): v is string => typeof v === "string").map((id) => [id, formData.getAll("transferableDocument").includes(id)]),
    ),
    templateDocumentModes: modesByPrefix(formData, "templateDocumentMode."),
    fileModes: formData.getAll("fileModes").filter((v): v is string => typeof v === "string"),
    appointment: appointmentFromForm(formData),
  };
}

/** The `<prefix><id>` selects of the form, by id. */
function modesByPrefix(formData: FormData, prefix: string): Record<string, string> {
  const modes: Record<string, string> = {};
  for (const [key, value] of formData.entries()) if (key.startsWith(prefix) && typeof value === "string") modes[key.slice(prefix.length)] = value;
  return modes;
}

const save = validatedAction<typeof SigningFormSchema, { values: Record<string, string> }>(
  SigningFormSchema,
  async (input, { db, principal, formData, evidence: { ipAddress } }) => {
    const signingId = optional(formData.get("signingId"));
    // After hydration each PDF went straight to storage and the form names the verified uploads;
    // before hydration the files themselves come with the form (the small-file path).
    const uploadIds = formData.getAll("uploadIds").filter((v): v is string => typeof v === "string" && v !== "");
    const files = formData.getAll("files").filter((f): f is File => f instanceof File && f.size > 0);
    // One mode (the form before hydration) applies to every file; otherwise one per file, in order.
    const modes = input.fileModes ?? [];
    const modeAt = (i: number) => (modes.length === 1 ? modes[0] : modes[i]);
    const documents = [
      ...uploadIds.map((uploadId, i) => ({ uploadId, executionMode: modeAt(i) })),
      ...(await Promise.all(
        files.map(async (file, i) => ({
          name: file.name || "Document.pdf",
          bytes: new Uint8Array(await file.arrayBuffer()),
          executionMode: modeAt(uploadIds.length + i),
        })),
      )),
    ];
    const send = formData.get("intent") === "send";
    const signing = await saveSigningDraft(db, {
      principal,
      ipAddress,
      packageId: signingId,
      locationId: input.locationId,
      title: input.title,
      message: input.message,
      templateId: input.templateId,
      flowId: input.flowId,
      signerAuthMethod: input.signerAuthMethod,
      signers: (input.signers ?? []).map(({ keepsAccessCode: _keeps, ...signer }) => signer),
      removeDocumentIds: formData.getAll("removeDocument").filter((v): v is string => typeof v === "string"),
      documents,
      documentModes: input.documentModes,
      documentTransferable: input.documentTransferable,
      templateDocumentModes: input.templateDocumentModes,
      appointment: input.appointment,
      send,
    });
    redirect(send ? `/signings/${signing.id}` : `/signings/${signing.id}/edit?saved=1`);
  },
  { returnTo, toInput: toCreateRequest },
);

const applyRowAction = signerRowsReducer<SignerRow>((row) => row);

/**
 * Without JavaScript, adding, removing and moving signer rows and applying a template's roles are
 * round trips through this action: it answers with the rows rearranged by the same rules the client
 * form applies (`signer-rows.ts`) and everything else as typed.
 */
async function rearrange(formData: FormData, button: RowButtonAction): Promise<SigningFormState> {
  const { db, principal } = await requirePrincipal(returnTo(formData));
  const values = stringValues(formData);
  delete values.intent;
  let action: SignerRowAction;
  if (button.type === "template") {
    const templateId = values.templateId;
    let roles: RoleTemplate[] = [];
    try {
      if (templateId) {
        const template = await getTemplateOrThrow(db, { principal, templateId, capability: "templates:read" });
        roles = template.roles;
        // The template's method of proof becomes the package's, as the client form does on choosing it.
        values.signerAuthMethod = template.signerAuthMethod;
      }
    } catch (error) {
      return errorState(error, formData);
    }
    action = { type: "template", roles };
  } else {
    action = button;
  }
  const rows = applyRowAction(signerRowsFromValues(values), action);
  return { status: "ok", data: { values: signerRowsToValues(rows, values) } };
}

/** The package form's one action: a row round trip, or save (and maybe send) through `saveSigningDraft`. */
export async function signingFormAction(previous: SigningFormState, formData: FormData): Promise<SigningFormState> {
  const button = parseRowIntent(formData.get("intent"));
  if (button) return rearrange(formData, button);
  return save(previous, formData);
}
