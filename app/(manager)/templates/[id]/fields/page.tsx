import type { Metadata } from "next";
import { FieldsPage } from "../../../_shared/document-fields/fields-page";

export const metadata: Metadata = { title: "Place template fields" };

/** `/templates/<id>/fields`: fields per template role, copied to the signers given those roles. */
export default async function TemplateFieldsPage({ params }: { params: Promise<{ id: string }> }) {
  return <FieldsPage owner="template" id={(await params).id} />;
}
