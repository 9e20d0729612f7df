import { OpenAPIHono } from "@hono/zod-openapi";
import type { ApiEnv } from "../context";
import { validationHook } from "../validation";
import { attachmentRoutes } from "./attachments";
import { managerClosings } from "./manager-closings";
import { managerFields } from "./manager-fields";
import { managerPlaces } from "./manager-places";
import { managerSigners } from "./manager-signers";
import { managerSigningDocuments } from "./manager-signing-documents";
import { managerTemplates } from "./manager-templates";
import { sealedFiles } from "./sealed-files";

/** The manager operations beyond the signing packages themselves, registered in app.ts with one line. */
export const manager = new OpenAPIHono<ApiEnv>({ defaultHook: validationHook })
  .route("/", managerSigners)
  .route("/", managerSigningDocuments)
  .route("/", managerPlaces)
  .route("/", managerTemplates)
  .route("/", sealedFiles)
  .route("/", managerFields)
  .route("/", managerClosings)
  .route("/", attachmentRoutes);
