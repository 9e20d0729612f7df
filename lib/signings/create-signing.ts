import type { SignerProofMethod } from "@/db/schema";
import { and, asc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import {
  flows,
  packageDocuments,
  packageSigners,
  signingPackages,
  templateDocuments,
  templates,
  type ExecutionMode,
  type SigningPackage,
} from "@/db/schema";
import { recordAuditEntry } from "@/lib/audit/record-audit-entry";
import type { Principal } from "@/lib/auth/principal";
import { requireCapability } from "@/lib/auth/principal";
import { reachesOrganization } from "@/lib/auth/reaches-organization";
import { preparePdfDocument } from "@/lib/uploads/prepare-pdf-document";
import { copyTemplateFields } from "@/lib/fields/copy-template-fields";
import { pgErrorCode } from "@/lib/db/pg-error-code";
import { BadRequest, Conflict, NotFound } from "@/lib/errors";
import { getLocationOrThrow } from "@/lib/locations/get-location-or-throw";
import { appointmentColumns, type ClosingAppointmentInput } from "@/lib/closings/closing-appointment";
import { pdfSourceOf, type PdfSource } from "@/lib/uploads/uploaded-pdf-document";
import { verifyUploadSources } from "@/lib/uploads/verify-upload-sources";
import { findUserIdByEmail } from "./find-user-id-by-email";
import { signerAccessColumns, type SignerAccessInput } from "@/lib/signer-access/signer-access-columns";
import { assertSignerProofComplete } from "@/lib/signer-access/signer-proof-gaps";
import { serializeSigner } from "./serialize-signer";
import { serializeSigning } from "@/lib/packages/serialize-signing";
import type { AttachmentRequestInput } from "@/lib/attachments/attachment-request-schema";
import { insertAttachmentRequests } from "@/lib/attachments/create-attachment-requests";
import { MAX_REQUESTS_PER_SIGNER } from "@/lib/attachments/limits";

export type NewSignerInput = SignerAccessInput & {
  /** The signer's pages and emails in this language; null or absent follows the organization's default. */
  language?: "en" | "es" | null;
  name: string;
  email: string;
  role?: "signer" | "co_signer";
  routingOrder?: number;
  /** Key of a template role: its role and routing order apply unless given. */
  templateRole?: string;
  /** Documents asked of this signer (lib/attachments): name, description, required. */
  attachments?: AttachmentRequestInput[];
};

export type CreateSigningOptions = {
  principal: Principal;
  locationId: number;
  title?: string;
  message?: string;
  templateId?: string;
  flowId?: string;
  /** How signers prove who they are unless a signer sets its own; default the template's, else email_code. */
  signerAuthMethod?: SignerProofMethod;
  signers?: NewSignerInput[];
  /** PDFs to attach, after any template documents: inline bytes (validated like an upload) or verified direct uploads. */
  documents?: (PdfSource & { executionMode?: ExecutionMode })[];
  /** Hybrid closings: the closing appointment and when e-signing opens (see lib/closings). */
  appointment?: ClosingAppointmentInput;
  /** Hybrid closings: a mode for some of the template's documents (by template document id), instead of the template's default. */
  templateDocumentModes?: Record<string, ExecutionMode>;
  ipAddress?: string | null;
};

/**
 * Creates a draft signing package at a location the caller manages, with its first audit entry.
 * A template's documents are copied into the package, then `documents` are attached after them; its
 * roles become signers only for the `signers` entries that name them. Without `flowId` the
 * organization's default flow applies. An invalid document rolls the whole creation back.
 */
export async function createSigning(db: Db, options: CreateSigningOptions): Promise<SigningPackage> {
  requireCapability(options.principal, "signings:write", "You do not have permission to create signing packages.");
  await verifyUploadSources(db, { principal: options.principal, sources: options.documents ?? [] });
  return db.transaction(async (tx) => {
    const location = await getLocationOrThrow(tx, {
      principal: options.principal,
      locationId: options.locationId,
      capability: "signings:write",
    });
    const organizationId = location.organizationId;

    let template: typeof templates.$inferSelect | undefined;
    if (options.templateId) {
      [template] = await tx
        .select()
        .from(templates)
        .where(and(eq(templates.id, options.templateId), eq(templates.organizationId, organizationId)))
        .limit(1);
      if (!template || !reachesOrganization(options.principal, "templates:read", organizationId)) {
        throw NotFound(`Template ${options.templateId} not found.`);
      }
    }

    let flowId: string | null = null;
    if (options.flowId) {
      const [flow] = await tx
        .select({ id: flows.id })
        .from(flows)
        .where(and(eq(flows.id, options.flowId), eq(flows.organizationId, organizationId)))
        .limit(1);
      if (!flow) throw NotFound(`Flow ${options.flowId} not found.`);
      flowId = flow.id;
    } else {
      const [flow] = await tx
        .select({ id: flows.id })
        .from(flows)
        .where(and(eq(flows.organizationId, organizationId), eq(flows.isDefault, true)))
        .orderBy(asc(flows.createdAt))
        .limit(1);
      flowId = flow?.id ?? null;
    }

    const [created] = await tx
      .insert(signingPackages)
      .values({
        organizationId,
        companyId: location.companyId,
        locationId: location.id,
        title: options.title ?? template?.name ?? `Signing at ${location.name}`,
        message: options.message ?? null,
        templateId: template?.id ?? null,
        flowId,
        signerAuthMethod: options.signerAuthMethod ?? template?.signerAuthMethod ?? "email_code",
        createdByUserId: options.principal.user.id,
        ...appointmentColumns(options.appointment),
      })
      .returning();
    const signing = created!;

    let documentIds: string[] = [];
    // Template document id → its copy in the package, for the template's fields.
    const copiedDocumentIds = new Map<string, string>();
    if (template) {
      const sources = await tx
        .select()
        .from(templateDocuments)
        .where(eq(templateDocuments.templateId, template.id))
        .orderBy(asc(templateDocuments.position), asc(templateDocuments.id));
      if (sources.length > 0) {
        const copies = await tx
          .insert(packageDocuments)
          .values(
            sources.map((d) => ({
              packageId: signing.id,
              name: d.name,
              storageKey: d.storageKey,
              sizeBytes: d.sizeBytes,
              sha256: d.sha256,
              pageCount: d.pageCount,
              position: d.position,
              executionMode: options.templateDocumentModes?.[d.id] ?? d.executionMode,
              transferable: d.transferable,
            })),
          )
          .returning({ id: packageDocuments.id });
        documentIds = copies.map((c) => c.id);
        // INSERT … VALUES … RETURNING answers in the order of the VALUES list.
        sources.forEach((source, i) => copiedDocumentIds.set(source.id, copies[i]!.id));
      }
    }
    for (const input of options.documents ?? []) {
      const document = await preparePdfDocument(tx, {
        source: pdfSourceOf(input),
        principal: options.principal,
        table: packageDocuments,
        siblings: eq(packageDocuments.packageId, signing.id),
      });
      const [attached] = await tx
        .insert(packageDocuments)
        .values({ packageId: signing.id, ...document, executionMode: input.executionMode ?? "esign" })
        .returning({ id: packageDocuments.id });
      documentIds.push(attached!.id);
    }

    const signerRows = [];
    const signerRoleKeys: (string | undefined)[] = [];
    for (const input of options.signers ?? []) {
      const role = input.templateRole ? template?.roles.find((r) => r.key === input.templateRole) : undefined;
      if (input.templateRole && !role) {
        throw BadRequest(
          template
            ? `Template "${template.name}" has no role "${input.templateRole}".`
            : `Signer ${input.email} names the template role "${input.templateRole}", but the package has no template.`,
        );
      }
      signerRows.push({
        packageId: signing.id,
        userId: await findUserIdByEmail(tx, input.email),
        name: input.name,
        email: input.email,
        role: input.role ?? role?.role ?? "signer",
        routingOrder: input.routingOrder ?? role?.routingOrder ?? 1,
        // A template role's method applies unless the signer sets one.
        ...(await signerAccessColumns({ ...input, authMethod: input.authMethod ?? role?.authMethod }, { userId: options.principal.user.id })),
        language: input.language ?? null,
      });
      signerRoleKeys.push(role?.key);
    }
    assertSignerProofComplete(
      signing.signerAuthMethod,
      signerRows.map((row) => ({ name: row.name, authMethod: row.authMethod, hasAccessCode: row.accessCodeHash !== null, hasPhone: row.phone !== null })),
      "creating the package",
    );
    const signers =
      signerRows.length > 0
        ? await tx
            .insert(packageSigners)
            .values(signerRows)
            .returning()
            .catch((error: unknown) => {
              if (pgErrorCode(error) === "23505") throw Conflict("A signing package lists each signer's email once.");
              throw error;
            })
        : [];
    // The first signer to take a template role fills that role's fields.
    const signerIdsByRole = new Map<string, string>();
    signers.forEach((signer, i) => {
      const key = signerRoleKeys[i];
      if (key && !signerIdsByRole.has(key)) signerIdsByRole.set(key, signer.id);
    });
    const fieldCount = await copyTemplateFields(tx, { packageId: signing.id, documentIds: copiedDocumentIds, signerIdsByRole });

    await recordAuditEntry(tx, {
      organizationId,
      packageId: signing.id,
      actorUserId: options.principal.user.id,
      action: "signing.created",
      entityType: "signing_package",
      entityId: signing.id,
      ipAddress: options.ipAddress,
      after: { ...serializeSigning(signing), signers: signers.map(serializeSigner), documentIds, ...(fieldCount > 0 ? { fieldCount } : {}) },
    });
    const attachmentInputs = (options.signers ?? []).flatMap((input, i) => {
      if (input.attachments !== undefined && !Array.isArray(input.attachments)) throw BadRequest(`signers.${i}.attachments: must be a list.`);
      // The template role's requests first, then the signer's own (one request per name).
      const roleRequests = template?.roles.find((r) => r.key === signerRoleKeys[i])?.attachments ?? [];
      const seen = new Set<string>();
      const requests = [...roleRequests, ...(input.attachments ?? [])].filter((r) => {
        const key = String(r?.name ?? "").trim().toLowerCase();
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
      if (requests.length > MAX_REQUESTS_PER_SIGNER) throw BadRequest(`signers.${i}.attachments: at most ${MAX_REQUESTS_PER_SIGNER} attachments per signer.`);
      return requests.map((request) => ({ signerId: signers[i]!.id, request }));
    });
    await insertAttachmentRequests(tx, { signing, actorUserId: options.principal.user.id, ipAddress: options.ipAddress, requests: attachmentInputs });
    return signing;
  });
}
