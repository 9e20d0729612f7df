import { z } from "zod";

/** The outbound `signer_document_signed` event of the vault contract (docs/integrations.md): exactly these six fields, nothing else. */
export const VaultEventSchema = z.strictObject({
  type: z.literal("signer_document_signed"),
  signingOrganizationId: z.string().min(1),
  signingId: z.string().min(1),
  documentId: z.string().min(1),
  authUserId: z.string().min(1),
  firstESign: z.boolean(),
});

export type VaultEvent = z.infer<typeof VaultEventSchema>;
