import type { FlowStep } from "@/db/schema/flows";

/** What each flow step is called on the console (the signer's page names them in its own words). */
export const STEP_LABELS: Record<FlowStep, string> = {
  review: "Review documents",
  sign: "Sign",
  link_bank: "Link a bank account",
  upload_documents: "Upload documents",
  done: "Done",
};
