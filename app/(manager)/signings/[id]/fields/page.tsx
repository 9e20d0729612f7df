import type { Metadata } from "next";
import { FieldsPage } from "../../../_shared/document-fields/fields-page";

export const metadata: Metadata = { title: "Place fields" };

/** `/signings/<id>/fields`: each signer's fields on a draft's documents; a sent package's read-only. */
export default async function SigningFieldsPage({ params }: { params: Promise<{ id: string }> }) {
  return <FieldsPage owner="package" id={(await params).id} />;
}
