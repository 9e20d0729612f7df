import { z } from "zod";
import type { Db } from "@/db/client";
import { IdempotencyHeaderSchema, RecordESignatureSchema } from "@/lib/api/schemas/signer";
import type { Principal } from "@/lib/auth/principal";
import { recordESignature } from "@/lib/esignatures/record-esignature";
import { AppError } from "@/lib/errors";
import { getSigningConsent } from "@/lib/signings/get-signing-consent";
import type { RequestEvidence } from "../../../_lib/request-evidence";
import { actionErrorMessage } from "./action-error-message";

export type SignFormState =
  | { status: "idle" }
  | { status: "error"; reason: "document_changed" | "out_of_turn" | "consent" | "fields" | "invalid" | "refused"; message: string }
  | { status: "signed"; documentId: string; signedAt: string; eSignatureId: string };

export const SIGN_MESSAGES = {
  documentChanged: "The lender changed this document after you opened it. Reload to see the new version.",
  outOfTurn: "It is not your turn yet: someone earlier in the signing order still has to sign. We will email you when it is your turn.",
  consent: "Read and accept the electronic records disclosure before you sign.",
  fields: "Some required fields of this document are still empty. Use “Next field” to fill them, then sign again.",
  invalidField: "One of the fields you filled in was not accepted. Check the fields of this document and sign again.",
  failed: "We could not confirm your signature. Try again: signing again never creates a second signature.",
} as const;

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

/** A sentence for a signature that does not pass the API's own schema (which the form reuses). */
function invalidSignatureMessage(path: PropertyKey | undefined): string {
  switch (path) {
    case "imageDataUrl":
      return "Your drawn signature could not be read. Choose “Change signature”, clear it and draw it again.";
    case "text":
      return "Your typed signature must be 1 to 200 characters. Choose “Change signature” to fix it.";
    case "font":
      return "Choose one of the offered signature styles with “Change signature”.";
    case "fields":
      return SIGN_MESSAGES.invalidField;
    default:
      return "Reload the page and try again.";
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
  const kind = formData.get("kind");
  const fields = fieldValues(formData);
  const common = { consent: true, documentSha256: formData.get("documentSha256"), ...(fields.length > 0 ? { fields } : {}) };
  const body = RecordESignatureSchema.safeParse(
    kind === "drawn"
      ? { kind, imageDataUrl: formData.get("imageDataUrl"), ...common }
      : { kind, text: formData.get("text"), font: formData.get("font"), ...common },
  );
  if (!form.success) return { status: "error", reason: "invalid", message: "Reload the page and try again." };
  if (!body.success) return { status: "error", reason: "invalid", message: invalidSignatureMessage(body.error.issues[0]?.path[0]) };
  const { signingId, documentId, idempotencyKey } = form.data;

  try {
    if (!(await getSigningConsent(db, { principal, packageId: signingId }))) {
      return { status: "error", reason: "consent", message: SIGN_MESSAGES.consent };
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
    if (reason === "document_changed") return { status: "error", reason: "document_changed", message: SIGN_MESSAGES.documentChanged };
    if (reason === "missing_fields") return { status: "error", reason: "fields", message: SIGN_MESSAGES.fields };
    if (reason === "invalid_field") return { status: "error", reason: "invalid", message: SIGN_MESSAGES.invalidField };
    if (reason === "out_of_turn") return { status: "error", reason: "out_of_turn", message: SIGN_MESSAGES.outOfTurn };
    if (reason === "consent_required") return { status: "error", reason: "consent", message: SIGN_MESSAGES.consent };
    return { status: "error", reason: "refused", message: actionErrorMessage(error, SIGN_MESSAGES.failed) };
  }
}
