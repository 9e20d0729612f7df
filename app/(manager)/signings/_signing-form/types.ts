export type PlaceOption = { id: number; organizationId: number; label: string; group: string };
export type TemplateOption = {
  id: string;
  organizationId: number;
  name: string;
  roles: { key: string; label: string; role: "signer" | "co_signer"; routingOrder: number }[];
  documentNames: string[];
};
export type FlowOption = { id: string; organizationId: number; name: string; isDefault: boolean };
export type ExistingDocument = { id: string; name: string; pageCount: number };

/** One signer row of the form, as posted (`signers.<i>.<field>`). */
export type SignerRow = { id?: string; name: string; email: string; role: string; routingOrder: string; label?: string; language?: string };

export const SIGNER_FIELDS = ["id", "name", "email", "role", "routingOrder", "label", "language"] as const;
