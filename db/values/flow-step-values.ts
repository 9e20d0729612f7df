/**
 * The steps a flow can hold, in the order the editor offers them. A plain module without database
 * imports, so browser code can use it; `db/schema/flows.ts` types the `steps` column with it.
 */
export const FLOW_STEPS = ["review", "sign", "link_bank", "upload_documents", "done"] as const;
export type FlowStep = (typeof FLOW_STEPS)[number];
