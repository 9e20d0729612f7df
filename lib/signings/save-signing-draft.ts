import type { PdfSource } from "@/lib/uploads/uploaded-pdf-document";
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { packageSigners, type ExecutionMode, type SignerProofMethod, type SigningPackage } from "@/db/schema";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { AppError } from "@/lib/errors";
import { appointmentColumns, type ClosingAppointmentInput } from "@/lib/closings/closing-appointment";
import { setDocumentExecutionMode, updateClosingAppointment } from "@/lib/closings/closing-detail";
import { assertSignerProofComplete } from "@/lib/signer-access/signer-proof-gaps";
import { addPackageDocument } from "./add-package-document";
import { replaceDraftAttachmentRequests } from "@/lib/attachments/create-attachment-requests";
import { addSigner } from "./add-signer";
import { assertDraft } from "@/lib/packages/assert-draft";
import { createSigning, type NewSignerInput } from "./create-signing";
import { deletePackageDocument } from "./delete-package-document";
import { getSigningOrThrow } from "@/lib/packages/get-signing-or-throw";
import { removeSigner } from "./remove-signer";
import { sendSigning } from "./send-signing";
import { updateSigner } from "./update-signer";
import { updateSigning } from "./update-signing";
import { setDocumentTransferable } from "@/lib/transferable-records/set-document-transferable";

export type DraftSignerInput = NewSignerInput & {
  /** An existing signer of the draft; without it the signer is added. */
  id?: string;
};

export type SaveSigningDraftOptions = {
  principal: Principal;
  /** The draft to change; without it a new draft is created at `locationId`. */
  packageId?: string;
  locationId: number;
  title?: string;
  message?: string;
  templateId?: string;
  flowId?: string;
  /** How signers prove who they are unless a signer sets its own (new draft: default createSigning's; a draft: unchanged when absent). */
  signerAuthMethod?: SignerProofMethod;
  /**
   * The whole list of signers after the save: existing ones missing from it are removed. On a draft,
   * an existing signer's `authMethod` is set to what is given (absent: follows the package), a given
   * `accessCode` replaces the stored one (absent keeps it) and a given `phone` replaces the number.
   */
  signers: DraftSignerInput[];
  /** Documents of the draft to detach. */
  removeDocumentIds?: string[];
  /** PDFs to attach after the existing documents, inline or direct uploads, each validated like an upload (mode default esign). */
  documents?: (PdfSource & { executionMode?: ExecutionMode })[];
  /** A draft's documents: the execution mode each should have (`setDocumentExecutionMode`), by document id. */
  documentModes?: Record<string, ExecutionMode>;
  /** A draft's documents: whether each is a transferable record (`setDocumentTransferable`), by document id. */
  documentTransferable?: Record<string, boolean>;
  /** A new package from a template: a mode for some template documents (by template document id). */
  templateDocumentModes?: Record<string, ExecutionMode>;
  /** The closing appointment: a new package takes it as given; on a draft, changed fields are saved (`null` clears). */
  appointment?: ClosingAppointmentInput;
  /** Send the package once saved (same checks as `sendSigning`). */
  send?: boolean;
  ipAddress?: string | null;
};

/**
 * The manager's package form as one unit of work: creates the draft (`createSigning`) or brings an
 * existing draft to the form's state (`updateSigning`, `updateSigner`, `removeSigner`, `addSigner`,
 * `deletePackageDocument`, `addPackageDocument`), then optionally sends it (`sendSigning`). Everything
 * runs in one transaction (the domain functions nest as savepoints), so an invalid PDF, a duplicate
 * email or a package that cannot be sent yet leaves the package exactly as it was.
 */
export async function saveSigningDraft(db: Db, options: SaveSigningDraftOptions): Promise<SigningPackage> {
  requireCapability(options.principal, "signings:write", "You do not have permission to create signing packages.");
  const { principal, ipAddress } = options;
  return db.transaction(async (tx) => {
    let packageId: string;
    if (!options.packageId) {
      const created = await createSigning(tx, {
        principal,
        ipAddress,
        locationId: options.locationId,
        title: options.title,
        message: options.message,
        templateId: options.templateId,
        flowId: options.flowId,
        signerAuthMethod: options.signerAuthMethod,
        signers: options.signers,
        appointment: options.appointment,
        templateDocumentModes: options.templateDocumentModes,
      });
      packageId = created.id;
    } else {
      packageId = options.packageId;
      const before = await getSigningOrThrow(tx, { principal, packageId, capability: "signings:write", lock: true });
      assertDraft(before, "be edited");
      const changes = {
        ...(options.title !== undefined && options.title !== before.title ? { title: options.title } : {}),
        ...((options.message ?? null) !== before.message ? { message: options.message ?? null } : {}),
        ...(options.flowId !== undefined && options.flowId !== before.flowId ? { flowId: options.flowId } : {}),
        ...(options.signerAuthMethod !== undefined && options.signerAuthMethod !== before.signerAuthMethod ? { signerAuthMethod: options.signerAuthMethod } : {}),
      };
      if (Object.keys(changes).length > 0) await updateSigning(tx, { principal, packageId, ipAddress, ...changes });

      const existing = await tx.select().from(packageSigners).where(eq(packageSigners.packageId, packageId));
      const kept = new Set(options.signers.flatMap((s) => (s.id ? [s.id] : [])));
      // Removals first, so an email moved from a removed row to a new one does not collide.
      for (const signer of existing) {
        if (!kept.has(signer.id)) await removeSigner(tx, { principal, packageId, signerId: signer.id, ipAddress });
      }
      for (const input of options.signers) {
        const role = input.role ?? "signer";
        const routingOrder = input.routingOrder ?? 1;
        const current = input.id ? existing.find((s) => s.id === input.id) : undefined;
        if (input.id && current) {
          const changed = {
            ...(input.name !== current.name ? { name: input.name } : {}),
            ...(input.email !== current.email ? { email: input.email } : {}),
            ...(role !== current.role ? { role } : {}),
            ...(routingOrder !== current.routingOrder ? { routingOrder } : {}),
            ...((input.authMethod ?? null) !== current.authMethod ? { authMethod: input.authMethod ?? null } : {}),
            ...(input.accessCode ? { accessCode: input.accessCode } : {}),
            // The form always posts the mobile number and the consent box: both follow what it shows.
            ...((input.phone?.trim() || null) !== current.phone ? { phone: input.phone?.trim() || null } : {}),
            ...(Boolean(input.smsConsent) !== (current.smsConsentAt !== null) ? { smsConsent: Boolean(input.smsConsent) } : {}),
            ...(input.language !== undefined && input.language !== current.language ? { language: input.language } : {}),
          };
          if (Object.keys(changed).length > 0) await updateSigner(tx, { principal, packageId, signerId: input.id, ipAddress, ...changed });
        } else {
          await addSigner(tx, {
            principal,
            packageId,
            ipAddress,
            name: input.name,
            email: input.email,
            role,
            routingOrder,
            authMethod: input.authMethod,
            accessCode: input.accessCode,
            phone: input.phone,
            smsConsent: input.smsConsent,
            language: input.language,
          });
        }
      }
      // The form's whole state is known here: a signer whose method cannot work yet is refused now.
      const [after, signers] = await Promise.all([
        getSigningOrThrow(tx, { principal, packageId, capability: "signings:write" }),
        tx.select().from(packageSigners).where(eq(packageSigners.packageId, packageId)),
      ]);
      assertSignerProofComplete(
        after.signerAuthMethod,
        signers.map((s) => ({ name: s.name, authMethod: s.authMethod, hasAccessCode: s.accessCodeHash !== null, hasPhone: s.phone !== null })),
        "saving",
      );
      // The attachments asked of each signer, as the form lists them (matched by id, a new signer by email).
      for (const input of options.signers) {
        if (input.attachments === undefined) continue;
        const signer = signers.find((s) => (input.id ? s.id === input.id : s.email.toLowerCase() === input.email.toLowerCase()));
        if (signer) await replaceDraftAttachmentRequests(tx, { signing: after, signerId: signer.id, requests: input.attachments, actorUserId: principal.user.id, ipAddress });
      }
      for (const documentId of options.removeDocumentIds ?? []) {
        await deletePackageDocument(tx, { principal, packageId, documentId, ipAddress });
      }
      const removed = new Set(options.removeDocumentIds ?? []);
      for (const [documentId, executionMode] of Object.entries(options.documentModes ?? {})) {
        if (!removed.has(documentId)) await setDocumentExecutionMode(tx, { principal, packageId, documentId, executionMode, ipAddress });
      }
      for (const [documentId, transferable] of Object.entries(options.documentTransferable ?? {})) {
        if (!removed.has(documentId)) await setDocumentTransferable(tx, { principal, packageId, documentId, transferable, ipAddress });
      }
      if (options.appointment) {
        const wanted = appointmentColumns(options.appointment);
        const same = (Object.keys(wanted) as (keyof typeof wanted)[]).every((key) => String(wanted[key] ?? null) === String(after[key] ?? null));
        if (!same) await updateClosingAppointment(tx, { principal, packageId, appointment: options.appointment, ipAddress });
      }
    }
    for (const document of options.documents ?? []) {
      try {
        await addPackageDocument(tx, { principal, packageId, ipAddress, ...document });
      } catch (error) {
        // Several files arrive at once: say which one the upload rule refused.
        if (error instanceof AppError) throw new AppError(error.code, `${document.name ?? "An uploaded PDF"}: ${error.message}`);
        throw error;
      }
    }
    if (options.send) return sendSigning(tx, { principal, packageId, ipAddress });
    return getSigningOrThrow(tx, { principal, packageId, capability: "signings:write" });
  });
}
