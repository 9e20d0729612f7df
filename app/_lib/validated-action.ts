import { unstable_rethrow } from "next/navigation";
import type { z } from "zod";
import type { Db } from "@/db/client";
import type { Principal } from "@/lib/auth/principal";
import { AppError } from "@/lib/errors";
import { formFields, type FormFields } from "./form-fields";
import { requestEvidence, type RequestEvidence } from "./request-evidence";
import { requirePrincipal } from "./require-principal";
import type { FormState } from "@/components/ui/form-state";

export { IDLE, type FormState } from "@/components/ui/form-state";

/**
 * What every action gets besides its parsed input: the database, the principal, the raw form with a
 * reader for it, and the evidence (client IP by the /v1 rule, user agent) a write records.
 */
export type ActionContext = { db: Db; principal: Principal; formData: FormData; fields: FormFields; evidence: RequestEvidence };

type Options = {
  /** Where a signed-out person comes back to after signing in. */
  returnTo: string | ((formData: FormData) => string);
  /**
   * A signer's action: the package it acts on (e.g. from the form's `signingId`), whose signer session
   * from an emailed link then counts as the principal (`requirePrincipal`'s `signerOf`).
   */
  signerOf?: (formData: FormData) => string;
  /** FormData → the schema's input. Default: one entry per name (repeated names become arrays). */
  toInput?: (formData: FormData, fields: FormFields) => unknown;
};

/** FormData as a plain object: one entry per name, repeated names as arrays, files left out. */
export function formDataToObject(formData: FormData): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [key, value] of formData.entries()) {
    if (typeof value !== "string" || key.startsWith("$ACTION")) continue;
    const previous = out[key];
    out[key] = previous === undefined ? value : Array.isArray(previous) ? [...previous, value] : [previous, value];
  }
  return out;
}

function echoValues(formData: FormData): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [key, value] of formData.entries()) {
    if (typeof value === "string" && !key.startsWith("$ACTION") && !(key in values)) values[key] = value;
  }
  return values;
}

/** Turns an error into form state: an AppError's message is meant for people; anything else is rethrown. */
export function errorState(error: unknown, formData: FormData): FormState<never> {
  if (error instanceof AppError) return { status: "error", message: error.message, fieldErrors: {}, values: echoValues(formData) };
  throw error;
}

/**
 * The one wrapper for server actions: parse the form with the same zod schema as `/v1`,
 * resolve the principal (signed out → sign-in and back), call one domain function, and turn a zod
 * failure or an `AppError` into form state. `redirect()` and `notFound()` inside `action` pass through; other
 * errors propagate (the error boundary, a 500 logged once).
 */
export function validatedAction<S extends z.ZodType, T = undefined>(
  schema: S,
  action: (input: z.output<S>, context: ActionContext) => Promise<FormState<T> | void>,
  options: Options,
): (previous: FormState<T>, formData: FormData) => Promise<FormState<T>> {
  return async (_previous, formData) => {
    const fields = formFields(formData);
    const { db, principal } = await requirePrincipal(returnPath(options.returnTo, formData));
    const parsed = schema.safeParse(options.toInput ? options.toInput(formData, fields) : formDataToObject(formData));
    if (!parsed.success) {
      const fieldErrors: Record<string, string> = {};
      for (const issue of parsed.error.issues) {
        const key = issue.path.map(String).join(".") || "_form";
        fieldErrors[key] ??= issue.message;
      }
      const count = Object.keys(fieldErrors).length;
      return {
        status: "error",
        message: count === 1 ? Object.values(fieldErrors)[0]! : `Check the ${count} fields marked below.`,
        fieldErrors,
        values: echoValues(formData),
      };
    }
    try {
      const evidence = await requestEvidence();
      return (await action(parsed.data, { db, principal, formData, fields, evidence })) ?? { status: "ok" };
    } catch (error) {
      unstable_rethrow(error);
      return errorState(error, formData);
    }
  };
}

function returnPath(returnTo: Options["returnTo"], formData: FormData): string {
  return typeof returnTo === "function" ? returnTo(formData) : returnTo;
}

/**
 * The schema-less sibling of `validatedAction`, for a form whose answer is its own state type (the
 * signer's sign, consent and decline forms, which map each refusal to their own sentence): it
 * resolves the principal (signed out → sign-in and back to `returnTo`) and hands `action` the same
 * context (database, principal, the form and its reader, the request evidence). Errors are the
 * action's to turn into state; `redirect()` and `notFound()` pass through.
 */
export function contextAction<S>(
  action: (context: ActionContext) => Promise<S>,
  options: Pick<Options, "returnTo" | "signerOf">,
): (previous: S, formData: FormData) => Promise<S> {
  return async (_previous, formData) => {
    const fields = formFields(formData);
    const { db, principal } = await requirePrincipal(returnPath(options.returnTo, formData), { signerOf: options.signerOf?.(formData) });
    return action({ db, principal, formData, fields, evidence: await requestEvidence() });
  };
}

/** What a public action (no sign-in: the sign-in form, /verify) gets: the form, its reader and the request evidence. */
export type PublicActionContext = Omit<ActionContext, "db" | "principal">;

/**
 * The sibling of `contextAction` for the few forms that work signed out: no principal is resolved
 * (the action opens the database itself if it needs one); it gets the same form reader and evidence.
 */
export function publicAction<S>(action: (context: PublicActionContext) => Promise<S>): (previous: S, formData: FormData) => Promise<S> {
  return async (_previous, formData) => action({ formData, fields: formFields(formData), evidence: await requestEvidence() });
}
