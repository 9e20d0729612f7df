import { z } from "zod";
import type { Db } from "@/db/client";
import { IdempotencyHeaderSchema, RecordESignatureSchema } from "@/lib/api/schemas/signer";
import type { Principal } from "@/lib/auth/principal";
import { recordESignature } from "@/lib/esignatures/record-esignature";
import { AppError } from "@/lib/errors";
import { isLocale, type Locale } from "@/lib/i18n/locales";
import { borrowerTranslator } from "@/lib/i18n/translator";
import { getSigningConsent } from "@/lib/signings/get-signing-consent";
import type { RequestEvidence } from "../../../_lib/request-evidence";
import { actionErrorMessage } from "./action-error-message";

export type SignFormState =
  | { status: "idle" }
  | { status: "error"; reason: "document_changed" | "out_of_turn" | "consent" | "fields" | "invalid" | "refused"; message: string }
  | { status: "signed"; documentId: string; signedAt: string; eSignatureId: string };

const SignFormSchema = z.object({
  signingId: z.string().min(1).max(64),
  documentId: z.string().min(1).max(64),
  idempotencyKey: IdempotencyHeaderSchema.shape["idempotency-key"].unwrap(),
});

/** Form entries named `field:<id>` are the values of the signer's fields on the document. */
export const FIELD_ENTRY_PREFIX = "field:";

function fieldValues(formData: FormData): { id: string; value: string }[] {
  const values: { id: string; value: string }[] = [];
  for (const [name, value] of formData.entries()) {
    if (name.startsWith(FIELD_ENTRY_PREFIX) && typeof value === "string") values.push({ id: name.slice(FIELD_ENTRY_PREFIX.length), value });
  }
  return values;
}

/** The form's sentences in the signer's language (the row posts the page's `locale`). */
function signMessages(locale: Locale) {
  const t = borrowerTranslator(locale, "errors");
  const s = borrowerTranslator(locale, "sign");
  return {
    documentChanged: t("document_changed"),
    outOfTurn: t("out_of_turn"),
    consent: t("consent_required"),
    fields: t("missing_fields"),
    invalidField: t("invalid_field"),
    failed: t("signFailed"),
    reload: t("reload"),
    invalidDrawn: s("invalidDrawn"),
    invalidTyped: s("invalidTyped"),
    invalidFont: s("invalidFont"),
  };
}

/** A sentence for a signature that does not pass the API's own schema (which the form reuses). */
function invalidSignatureMessage(path: PropertyKey | undefined, m: ReturnType<typeof signMessages>): string {
  switch (path) {
    case "imageDataUrl":
      return m.invalidDrawn;
    case "text":
      return m.invalidTyped;
    case "font":
      return m.invalidFont;
    case "fields":
      return m.invalidField;
    default:
      return m.reload;
  }
}

/**
 * The sign button's work behind `signAction`: one document, with the adopted signature, the hash of
 * the document the page showed and the key generated for this intent. Consent must already be
 * recorded (`consent: true` is sent only then). A repeat with the same key answers with the same
 * record, so a double click or a retry shows the same success.
 */
export async function handleSignForm(
  db: Db,
  { principal, evidence, formData }: { principal: Principal; evidence: RequestEvidence; formData: FormData },
): Promise<SignFormState> {
  const form = SignFormSchema.safeParse({
    signingId: formData.get("signingId"),
    documentId: formData.get("documentId"),
    idempotencyKey: formData.get("idempotencyKey"),
  });
  const posted = formData.get("locale");
  const locale: Locale = isLocale(posted) ? posted : "en";
  const m = signMessages(locale);
  const kind = formData.get("kind");
  const fields = fieldValues(formData);
  const common = { consent: true, documentSha256: formData.get("documentSha256"), ...(fields.length > 0 ? { fields } : {}) };
  const body = RecordESignatureSchema.safeParse(
    kind === "drawn"
      ? { kind, imageDataUrl: formData.get("imageDataUrl"), ...common }
      : { kind, text: formData.get("text"), font: formData.get("font"), ...common },
  );
  if (!form.success) return { status: "error", reason: "invalid", message: m.reload };
  if (!body.success) return { status: "error", reason: "invalid", message: invalidSignatureMessage(body.error.issues[0]?.path[0], m) };
  const { signingId, documentId, idempotencyKey } = form.data;

  try {
    if (!(await getSigningConsent(db, { principal, packageId: signingId }))) {
      return { status: "error", reason: "consent", message: m.consent };
    }
    const signature = body.data.kind === "drawn" ? { kind: "drawn" as const, imageDataUrl: body.data.imageDataUrl } : { kind: "typed" as const, text: body.data.text, font: body.data.font };
    const { eSignature } = await recordESignature(db, {
      principal,
      packageId: signingId,
      documentId,
      signature,
      consent: true,
      documentSha256: body.data.documentSha256,
      fields: body.data.fields,
      idempotencyKey,
      ...evidence,
    });
    return { status: "signed", documentId, signedAt: eSignature.createdAt.toISOString(), eSignatureId: eSignature.id };
  } catch (error) {
    const reason = error instanceof AppError ? error.reason : undefined;
    if (reason === "document_changed") return { status: "error", reason: "document_changed", message: m.documentChanged };
    if (reason === "missing_fields") return { status: "error", reason: "fields", message: m.fields };
    if (reason === "invalid_field") return { status: "error", reason: "invalid", message: m.invalidField };
    if (reason === "out_of_turn") return { status: "error", reason: "out_of_turn", message: m.outOfTurn };
    if (reason === "consent_required") return { status: "error", reason: "consent", message: m.consent };
    return { status: "error", reason: "refused", message: actionErrorMessage(error, m.failed, locale) };
  }
}
