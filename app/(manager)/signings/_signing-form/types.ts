export type PlaceOption = { id: number; organizationId: number; label: string; group: string };
export type TemplateOption = {
  id: string;
  organizationId: number;
  name: string;
  roles: { key: string; label: string; role: "signer" | "co_signer"; routingOrder: number; authMethod?: string }[];
  /** How the template's signers prove who they are (the package form starts from it). */
  signerAuthMethod: string;
  documentNames: string[];
  /** The template's documents with the execution mode a package starts from. */
  documents: { id: string; name: string; executionMode: string }[];
};
export type FlowOption = { id: string; organizationId: number; name: string; isDefault: boolean };
export type ExistingDocument = { id: string; name: string; pageCount: number; executionMode: string; transferable: boolean };

/**
 * One signer row of the form, as posted (`signers.<i>.<field>`). `authMethod` empty follows the
 * package's method; `accessCode` is only ever what was typed (a stored code is never sent back:
 * `keepsAccessCode` "1" says one is stored). `phone` is the signer's mobile number (texts, and the
 * texted code); `smsConsent` is "on" when the manager attests the signer agreed to receive texts at it.
 */
export type SignerRow = {
  id?: string;
  name: string;
  email: string;
  role: string;
  routingOrder: string;
  label?: string;
  authMethod?: string;
  accessCode?: string;
  phone?: string;
  smsConsent?: string;
  keepsAccessCode?: string;
  /** "en", "es", or empty for the organization's default. */
  language?: string;
  /** The attachments asked of the signer, one per line (`parseAttachmentRequestLines`). */
  attachments?: string;
};

export const SIGNER_FIELDS = ["id", "name", "email", "role", "routingOrder", "label", "authMethod", "accessCode", "phone", "smsConsent", "keepsAccessCode", "language", "attachments"] as const;
