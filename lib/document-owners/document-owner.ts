import type { Db } from "@/db/client";
import { readObject } from "@/lib/storage/objects";
import type { SigningPackage, Template } from "@/db/schema";
import type { Capability } from "@/lib/auth/capabilities";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { getDocumentOrThrow } from "@/lib/packages/get-document-or-throw";
import { getSigningOrThrow } from "@/lib/packages/get-signing-or-throw";
import { getTemplateOrThrow } from "@/lib/templates/get-template-or-throw";

/**
 * Documents belong to a package or to a template. Both hold PDFs the manager places fields on and
 * downloads; what differs is the capability that reaches them and how the owner is loaded. The field
 * functions (`lib/fields/list-fields.ts`, `replace-fields.ts`) and the document file
 * (`getDocumentFile`) take an owner and its id and go through here.
 */
export type DocumentOwner = "package" | "template";

/** One document of an owner, by ids as they arrive from a URL or a form. */
export type OwnedDocumentRef = { owner: DocumentOwner; ownerId: string; documentId: string };

/** A loaded owner, in the caller's scope. */
export type LoadedOwner = { owner: "package"; row: SigningPackage } | { owner: "template"; row: Template };

type Access = "read" | "write";

const CAPABILITIES: Record<DocumentOwner, Record<Access, { capability: Capability; message: string }>> = {
  package: {
    read: { capability: "signings:read", message: "You do not have permission to read signing packages." },
    write: { capability: "signings:write", message: "You do not have permission to change signing packages." },
  },
  template: {
    read: { capability: "templates:read", message: "You do not have permission to read templates." },
    write: { capability: "templates:write", message: "You do not have permission to change templates." },
  },
};

/** 403 unless the principal's role has the owner's read or write capability at all. */
export function requireOwnerCapability(principal: Principal, owner: DocumentOwner, access: Access): void {
  const { capability, message } = CAPABILITIES[owner][access];
  requireCapability(principal, capability, message);
}

/**
 * The package or template in the caller's scope for `access` (404 otherwise, exactly like a missing
 * one); changing a template needs an organization-wide role (403). `lock` takes a row lock.
 */
export async function loadDocumentOwner(
  db: Db,
  options: { principal: Principal; owner: DocumentOwner; ownerId: string; access: Access; lock?: boolean },
): Promise<LoadedOwner> {
  const { principal, ownerId, lock } = options;
  const { capability } = CAPABILITIES[options.owner][options.access];
  if (options.owner === "package") {
    return { owner: "package", row: await getSigningOrThrow(db, { principal, packageId: ownerId, capability, lock }) };
  }
  const forbiddenMessage = options.access === "write" ? "Changing a template needs an organization-level role." : undefined;
  return { owner: "template", row: await getTemplateOrThrow(db, { principal, templateId: ownerId, capability, lock, forbiddenMessage }) };
}

/**
 * One document of a loaded owner, or 404. The PDF bytes are read only with `content: true`;
 * `contentType` is the stored one of a package document and PDF for a template document.
 */
export async function getOwnedDocumentOrThrow(db: Db, loaded: LoadedOwner, documentId: string, options: { content: true }): Promise<OwnedDocument & { content: Uint8Array }>;
export async function getOwnedDocumentOrThrow(db: Db, loaded: LoadedOwner, documentId: string, options?: { content?: false }): Promise<OwnedDocument>;
export async function getOwnedDocumentOrThrow(
  db: Db,
  loaded: LoadedOwner,
  documentId: string,
  options: { content?: boolean } = {},
): Promise<OwnedDocument & { content?: Uint8Array }> {
  if (loaded.owner === "package") {
    const { content, ...document } = await getDocumentOrThrow(db, { packageId: loaded.row.id, documentId }, (t) => ({
      id: t.id,
      name: t.name,
      contentType: t.contentType,
      pageCount: t.pageCount,
      sha256: t.sha256,
      ...(options.content ? { content: t.storageKey } : {}),
    }));
    return options.content ? { ...document, content: await readObject(db, content as string) } : document;
  }
  const { content, ...document } = await getDocumentOrThrow(db, { templateId: loaded.row.id, documentId }, (t) => ({
    id: t.id,
    name: t.name,
    pageCount: t.pageCount,
    sha256: t.sha256,
    ...(options.content ? { content: t.storageKey } : {}),
  }));
  const withType = { ...document, contentType: "application/pdf" };
  return options.content ? { ...withType, content: await readObject(db, content as string) } : withType;
}

export type OwnedDocument = { id: string; name: string; contentType: string; pageCount: number; sha256: string };
