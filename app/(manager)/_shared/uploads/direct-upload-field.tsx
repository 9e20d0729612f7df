"use client";

import { DirectUploadField as DirectUploadFieldOf } from "@/app/_components/uploads/direct-upload-field";
import { completeDocumentUpload, startDocumentUpload } from "./upload-actions";

const MANAGER_STEPS = { start: startDocumentUpload, complete: completeDocumentUpload };

/** The shared direct-upload field (app/_components/uploads) on a manager's form: one input, uploaded as the signed-in manager. */
export function DirectUploadField({ id, label, accept, ...field }: { id: string; name: string; idsName?: string; label: string; hint?: string; accept: string; multiple?: boolean; required?: boolean; error?: string }) {
  return <DirectUploadFieldOf {...field} inputs={[{ id, label, accept }]} steps={MANAGER_STEPS} />;
}
