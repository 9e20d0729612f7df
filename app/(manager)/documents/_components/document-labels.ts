import type { ChattelDocument, OutreachMessage } from "@/db/schema";

export const DOCUMENT_TYPE_LABELS: Record<ChattelDocument["type"], string> = {
  retail_installment_contract: "Retail installment contract",
  certificate_of_title: "Certificate of title",
  manufacturer_certificate_of_origin: "Manufacturer's certificate of origin",
  bill_of_sale: "Bill of sale",
  lien_release: "Lien release",
  other: "Other",
};

export const DOCUMENT_STATUS_LABELS: Record<ChattelDocument["status"], string> = {
  requested: "Requested",
  received: "Received",
  under_review: "Under review",
  accepted: "Accepted",
  rejected: "Rejected",
};

export const RECIPIENT_KIND_LABELS: Record<OutreachMessage["recipientKind"], string> = {
  borrower: "Borrower",
  co_borrower: "Co-borrower",
  dealer_contact: "Dealer contact",
};

export const PURPOSE_LABELS: Record<OutreachMessage["purpose"], string> = {
  request_document: "Request the document",
  remind_unsigned: "Remind to sign",
  custom: "Custom message",
};

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
