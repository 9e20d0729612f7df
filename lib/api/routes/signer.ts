import { OpenAPIHono } from "@hono/zod-openapi";
import type { ApiEnv } from "../context";
import { signerSignings } from "./signer-signings";
import { signingAudit } from "./signing-audit";

/** The signer queue (`/v1/signing/signer/*`) and the signing audit trail. */
export const signer = new OpenAPIHono<ApiEnv>().route("/", signerSignings).route("/", signingAudit);
