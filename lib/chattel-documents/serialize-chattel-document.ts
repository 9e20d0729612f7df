import type { ChattelDocument } from "@/db/schema";

export type ChattelDocumentJson = ReturnType<typeof serializeChattelDocument>;

export function serializeChattelDocument(d: ChattelDocument) {
  return {
    id: d.id,
    organizationId: d.organizationId,
    companyId: d.companyId,
    locationId: d.locationId,
    signingPackageId: d.signingPackageId,
    type: d.type,
    status: d.status,
    title: d.title,
    borrowerName: d.borrowerName,
    borrowerEmail: d.borrowerEmail,
    coBorrowers: d.coBorrowers,
    dealerContacts: d.dealerContacts,
    collateralMake: d.collateralMake,
    collateralModel: d.collateralModel,
    collateralYear: d.collateralYear,
    collateralSerial: d.collateralSerial,
    notes: d.notes,
    createdByUserId: d.createdByUserId,
    createdAt: d.createdAt.toISOString(),
    updatedAt: d.updatedAt.toISOString(),
  };
}
