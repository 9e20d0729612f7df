import { z } from "zod";
import { executionModeEnum } from "@/db/schema";

/** How a document is executed, as a package's or a template's document setter accepts it (400 otherwise). */
export const executionModeSchema = z.enum(executionModeEnum.enumValues, { error: "executionMode must be esign, wet_sign, notarize or review_only" });
