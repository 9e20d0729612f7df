/**
 * What a form shows after a server action (`useActionState`): nothing yet, an error with the message
 * for a live region, errors per field (keyed by the field's name) and the values that were sent so the
 * form can be re-rendered with them (a form posted before hydration reloads the page), or success.
 */
export type FormState<T = undefined> =
  | { status: "idle" }
  | { status: "error"; message: string; fieldErrors: Record<string, string>; values: Record<string, string> }
  | { status: "ok"; message?: string; data?: T };

export const IDLE: FormState<never> = { status: "idle" };
