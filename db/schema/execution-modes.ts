import { pgEnum } from "drizzle-orm/pg-core";

/**
 * How a document of a package (or template) is executed: `esign` (signed on screen), `wet_sign`
 * (printed and signed in ink at the closing table), `notarize` (signed in ink before a notary) or
 * `review_only` (the borrower confirms receipt; nothing to sign).
 */
export const executionModeEnum = pgEnum("execution_mode", ["esign", "wet_sign", "notarize", "review_only"]);

/**
 * Where one document stands on its way to completion; moved only by `transitionDocument`
 * (lib/packages/document-state-machine.ts holds the table).
 */
export const documentExecutionStatusEnum = pgEnum("document_execution_status", [
  "pending",
  "esigned",
  "scan_uploaded",
  "accepted",
  "rejected",
  "acknowledged",
]);

export type ExecutionMode = (typeof executionModeEnum.enumValues)[number];
export type DocumentExecutionStatus = (typeof documentExecutionStatusEnum.enumValues)[number];
