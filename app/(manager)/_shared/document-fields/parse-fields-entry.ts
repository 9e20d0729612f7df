/**
 * The field editor's form: ids as plain entries and the fields as one JSON entry. Unparsable JSON
 * becomes a value the schema refuses ("fields: expected array"), not an exception.
 */
export function parseFieldsEntry(formData: FormData): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const [name, value] of formData.entries()) {
    if (typeof value !== "string" || name.startsWith("$ACTION")) continue;
    input[name] = value;
  }
  try {
    input.fields = JSON.parse(String(formData.get("fields") ?? "null"));
  } catch {
    input.fields = null;
  }
  return input;
}
