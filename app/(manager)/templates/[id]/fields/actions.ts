"use server";

import type { FormState } from "../../../../_lib/validated-action";
import { saveTemplateFields } from "../../../_shared/document-fields/save-fields-action";

/** Saves the fields of one template document, per role. */
export async function saveTemplateFieldsAction(previous: FormState, formData: FormData): Promise<FormState> {
  return saveTemplateFields(previous, formData);
}
