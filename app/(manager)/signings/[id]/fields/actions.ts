"use server";

import type { FormState } from "../../../../_lib/validated-action";
import { savePackageFields } from "../../../_shared/document-fields/save-fields-action";

/** Saves the fields of one document of a draft package (the editor posts them as JSON in `fields`). */
export async function saveSigningFieldsAction(previous: FormState, formData: FormData): Promise<FormState> {
  return savePackageFields(previous, formData);
}
