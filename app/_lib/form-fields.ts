/**
 * Reading a posted form's text inputs, the one way every server action does it. A missing entry or a
 * file is `undefined`; the caller's zod schema decides what an empty or malformed value means.
 */
export type FormFields = {
  /** The entry as sent, or undefined. */
  text(name: string): string | undefined;
  /** The entry trimmed; empty (or missing) is null, the way the API's nullable fields take "none". */
  optionalText(name: string): string | null;
  /** Every entry of a repeated name that is text (checkboxes, ordered rows). */
  all(name: string): string[];
  /** An id or count as the integer the API schema expects; anything else is passed on for the schema to refuse. */
  int(name: string): number | string | undefined;
};

export function formFields(formData: FormData): FormFields {
  const text = (name: string) => {
    const value = formData.get(name);
    return typeof value === "string" ? value : undefined;
  };
  return {
    text,
    optionalText: (name) => {
      const value = text(name)?.trim();
      return value ? value : null;
    },
    all: (name) => formData.getAll(name).filter((value): value is string => typeof value === "string"),
    int: (name) => {
      const value = text(name);
      return value !== undefined && /^\d{1,10}$/.test(value) ? Number(value) : value;
    },
  };
}
