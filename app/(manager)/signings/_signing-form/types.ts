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

/**
 * One signer row of the form, as posted (`signers.<i>.<field>`). `phone` is the signer's mobile
 * number (texts, and the texted code); `smsConsent` is "on" when the manager attests the signer
 * agreed to receive texts at it.
 */
export type SignerRow = { id?: string; name: string; email: string; role: string; routingOrder: string; label?: string; phone?: string; smsConsent?: string };

export const SIGNER_FIELDS = ["id", "name", "email", "role", "routingOrder", "label", "phone", "smsConsent"] as const;
