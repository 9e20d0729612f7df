/**
 * The execution modes as the manager's forms offer them (a plain module: client components import
 * it, never the database schema). The order is the order of the choices.
 */
export const EXECUTION_MODE_OPTIONS = [
  { value: "esign", label: "E-sign now" },
  { value: "wet_sign", label: "Sign in ink at the table" },
  { value: "notarize", label: "Notarize at the table" },
  { value: "review_only", label: "Read only" },
] as const;

export type ExecutionModeValue = (typeof EXECUTION_MODE_OPTIONS)[number]["value"];

export const executionModeLabel = (mode: string): string => EXECUTION_MODE_OPTIONS.find((o) => o.value === mode)?.label ?? mode;
