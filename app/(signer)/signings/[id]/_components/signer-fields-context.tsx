"use client";

import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from "react";
import type { FieldType } from "@/db/values/field-type-values";
import { isFieldFilled } from "@/lib/fields/is-field-filled";
import type { AdoptedSignature } from "./adopted-signature";

// The signer's fields as state shared by the sign panel and the field overlays. Kept apart from the
// overlays (signer-fields.tsx, loaded as a chunk of its own): the sign panel needs only this, and a
// package without fields should not pay for the overlays in its first-load scripts.

export type SignerField = {
  id: string;
  documentId: string;
  type: FieldType;
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
  required: boolean;
  label: string | null;
  /** The stored value (after signing); null before. */
  value: string | null;
};

export type FieldsContext = {
  fields: SignerField[];
  signerName: string;
  /** What each of the signer's own fillable fields (text, checkbox, initials) holds now. */
  values: Record<string, string>;
  setValue: (fieldId: string, value: string) => void;
  signature: AdoptedSignature | null;
  setSignature: (signature: AdoptedSignature | null) => void;
  signedDocuments: ReadonlySet<string>;
  markSigned: (documentId: string) => void;
  selectedDocumentId: string | undefined;
  setSelectedDocumentId: (documentId: string) => void;
};

const Context = createContext<FieldsContext | null>(null);

/** The fields context, or null on a page without fields (the sign panel then behaves as before). */
export function useSignerFields(): FieldsContext | null {
  return useContext(Context);
}

/** The initials stamped in an initials field: from the adopted typed signature, else the signer's name. */
export function initialsFor(signature: AdoptedSignature | null, signerName: string): string {
  const source = signature?.kind === "typed" ? signature.text : signerName;
  return source
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 3)
    .map((w) => w[0]!.toUpperCase())
    .join("");
}

/** The fields of one document still to fill before its Sign button works. */
export function missingFields(ctx: FieldsContext, documentId: string): SignerField[] {
  if (ctx.signedDocuments.has(documentId)) return [];
  return ctx.fields.filter((f) => f.documentId === documentId && f.required && !isFieldFilled({ type: f.type, value: ctx.values[f.id] ?? null }));
}

/** `field:<id>` entries the sign form posts for a document (text, checkbox and initials fields). */
export function fieldEntries(ctx: FieldsContext, documentId: string): [string, string][] {
  return ctx.fields
    .filter((f) => f.documentId === documentId && (f.type === "text" || f.type === "checkbox" || f.type === "initials"))
    .map((f) => [`field:${f.id}`, ctx.values[f.id] ?? (f.type === "checkbox" ? "false" : "")]);
}

export function SignerFieldsProvider({
  fields,
  signerName,
  initialDocumentId,
  signedDocumentIds,
  children,
}: {
  fields: SignerField[];
  signerName: string;
  initialDocumentId?: string;
  signedDocumentIds: string[];
  children: ReactNode;
}) {
  const [values, setValues] = useState<Record<string, string>>(() =>
    Object.fromEntries(fields.filter((f) => f.value !== null).map((f) => [f.id, f.value!])),
  );
  const [signature, setSignature] = useState<AdoptedSignature | null>(null);
  const [signed, setSigned] = useState<ReadonlySet<string>>(() => new Set(signedDocumentIds));
  const [selectedDocumentId, setSelectedDocumentId] = useState(initialDocumentId);
  const setValue = useCallback((fieldId: string, value: string) => setValues((v) => ({ ...v, [fieldId]: value })), []);
  const markSigned = useCallback((documentId: string) => setSigned((s) => (s.has(documentId) ? s : new Set([...s, documentId]))), []);
  const value = useMemo(
    () => ({ fields, signerName, values, setValue, signature, setSignature, signedDocuments: signed, markSigned, selectedDocumentId, setSelectedDocumentId }),
    [fields, signerName, values, setValue, signature, signed, markSigned, selectedDocumentId],
  );
  return <Context.Provider value={value}>{children}</Context.Provider>;
}

