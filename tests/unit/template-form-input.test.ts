import { describe, expect, it } from "vitest";
import { roleInput, roleRowsFrom } from "@/app/(manager)/templates/template-input";
import { UpdateTemplateSchema } from "@/lib/api/schemas/templates";

// The template form posts its role rows as `roles.<i>.<field>`; the server action turns them into the
// API's `roles` array. The order shown must be the order saved, and an error must name the row shown.

function form(rows: Record<string, string>[]): FormData {
  const data = new FormData();
  data.append("name", "Retail closing");
  rows.forEach((row, i) => {
    for (const [field, value] of Object.entries(row)) data.append(`roles.${i}.${field}`, value);
  });
  return data;
}

describe("template form roles", () => {
  it("keeps the rows in the order shown, also past ten rows, with numeric routing orders", () => {
    const rows = Array.from({ length: 12 }, (_, i) => ({ key: `r${i}`, label: `Role ${i}`, role: "signer", routingOrder: String(i + 1) }));
    const roles = roleRowsFrom(form(rows).entries()).map(roleInput);
    expect(roles.map((r) => r.key)).toEqual(["r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11"]);
    expect(roles[11]).toEqual({ key: "r11", label: "Role 11", role: "signer", routingOrder: 12 });
  });

  it("leaves a bad routing order for the schema to refuse, on the row it came from", () => {
    const roles = roleRowsFrom(
      form([
        { key: "buyer", label: "Buyer", role: "signer", routingOrder: "1" },
        { key: "co buyer", label: "Co-buyer", role: "co_signer", routingOrder: "" },
      ]).entries(),
    ).map(roleInput);
    const parsed = UpdateTemplateSchema.safeParse({ roles });
    expect(parsed.success).toBe(false);
    const paths = parsed.error!.issues.map((issue) => issue.path.join("."));
    expect(paths).toContain("roles.1.key");
    expect(paths).toContain("roles.1.routingOrder");
    expect(paths.some((p) => p.startsWith("roles.0"))).toBe(false);
  });

  it("reads the rows back from the values a failed post echoed", () => {
    const echoed = { name: "x", "roles.1.label": "Second", "roles.0.label": "First", "roles.0.key": "a", "roles.1.key": "b", "roles.1.role": "co_signer" };
    expect(roleRowsFrom(Object.entries(echoed))).toEqual([
      { key: "a", label: "First", role: "signer", routingOrder: "" },
      { key: "b", label: "Second", role: "co_signer", routingOrder: "" },
    ]);
  });

  it("turns a role's documents to ask for, one per line, into its attachment requests the schema accepts", () => {
    const data = new FormData();
    for (const [name, value] of Object.entries({ "roles.0.key": "buyer", "roles.0.label": "Buyer", "roles.0.role": "signer", "roles.0.routingOrder": "1" })) data.append(name, value);
    data.append("roles.0.attachments", "Driver's license, front and back\n\nProof of insurance | the current policy (optional)\n");
    const roles = roleRowsFrom(data.entries()).map(roleInput);
    expect(roles[0]!.attachments).toEqual([
      { name: "Driver's license, front and back", description: null, required: true },
      { name: "Proof of insurance", description: "the current policy", required: false },
    ]);
    expect(UpdateTemplateSchema.safeParse({ roles }).success).toBe(true);
    // An empty box asks for nothing.
    data.set("roles.0.attachments", "  \n");
    expect(roleRowsFrom(data.entries()).map(roleInput)[0]).not.toHaveProperty("attachments");
  });
});
