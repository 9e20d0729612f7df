import type { Context } from "hono";
import type { z } from "zod";

const JSON_TYPE = /^application\/([\w.-]+\+)?json$/i;

/** Turns a zod failure into one readable sentence, e.g. `locationId: expected an integer.` */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => {
      const path = issue.path.length > 0 ? `${issue.path.join(".")}: ` : "";
      return `${path}${issue.message}`;
    })
    .join("; ");
}

type HookResult = { success: true } | { success: false; error: z.ZodError; target: string };

/** The OpenAPIHono default hook: every validation failure is a 400 `{ error }`. */
export function validationHook(result: HookResult, c: Context): Response | undefined {
  if (result.success) return undefined;
  if (result.target === "json") {
    const mediaType = (c.req.header("content-type") ?? "").split(";")[0]!.trim();
    if (!JSON_TYPE.test(mediaType)) {
      return c.json({ error: "Request body must be JSON, sent with Content-Type: application/json." }, 400);
    }
    return c.json({ error: `Invalid request body. ${describeIssues(result.error)}` }, 400);
  }
  return c.json({ error: `Invalid ${result.target === "param" ? "path parameter" : result.target}. ${describeIssues(result.error)}` }, 400);
}
