import { describe, expect, it } from "vitest";
import {
  parseRowIntent,
  rowIntent,
  rowNeedsAccessCodeInput,
  rowNeedsPhoneInput,
  signerRowsFromValues,
  signerRowsReducer,
  type SignerRowAction,
} from "@/app/(manager)/signings/_signing-form/signer-rows";
import type { SignerRow } from "@/app/(manager)/signings/_signing-form/types";

// The package form's signer-row rules, shared by the client form and the no-JavaScript round trip.
const apply = signerRowsReducer<SignerRow>((row) => row);
const row = (name: string, routingOrder: string, extra: Partial<SignerRow> = {}): SignerRow => ({
  name,
  email: name ? `${name.toLowerCase()}@example.test` : "",
  role: "signer",
  routingOrder,
  ...extra,
});

describe("signer rows", () => {
  it("adds a blank row one order after the last", () => {
    expect(apply([row("Ann", "1"), row("Bob", "3")], { type: "add" })).toEqual([
      row("Ann", "1"),
      row("Bob", "3"),
      { name: "", email: "", role: "signer", routingOrder: "4" },
    ]);
    expect(apply([], { type: "add" })).toEqual([{ name: "", email: "", role: "signer", routingOrder: "1" }]);
  });

  it("removes a row, leaving one blank row when the last goes", () => {
    expect(apply([row("Ann", "1"), row("Bob", "2")], { type: "remove", index: 0 })).toEqual([row("Bob", "2")]);
    expect(apply([row("Ann", "1")], { type: "remove", index: 0 })).toEqual([{ name: "", email: "", role: "signer", routingOrder: "1" }]);
  });

  it("moves a row and swaps the two routing orders", () => {
    const rows = [row("Ann", "1", { id: "a" }), row("Bob", "2", { id: "b" }), row("Cy", "2")];
    expect(apply(rows, { type: "move", index: 1, by: -1 })).toEqual([row("Bob", "1", { id: "b" }), row("Ann", "2", { id: "a" }), row("Cy", "2")]);
    expect(apply(rows, { type: "move", index: 0, by: -1 })).toBe(rows);
    expect(apply(rows, { type: "move", index: 2, by: 1 })).toBe(rows);
  });

  it("updates one row's fields", () => {
    expect(apply([row("Ann", "1"), row("Bob", "2")], { type: "update", index: 1, change: { role: "co_signer" } })).toEqual([
      row("Ann", "1"),
      row("Bob", "2", { role: "co_signer" }),
    ]);
  });

  it("fills the typed rows with a template's roles, drops blank rows and keeps the extra typed ones", () => {
    const rows = [row("", "1"), row("Ann", "1", { id: "a" }), row("Bob", "2"), row("Cy", "3")];
    const roles = [
      { label: "Buyer", role: "signer", routingOrder: 1 },
      { label: "Co-buyer", role: "co_signer", routingOrder: 1 },
    ];
    expect(apply(rows, { type: "template", roles })).toEqual([
      row("Ann", "1", { id: "a", label: "Buyer" }),
      row("Bob", "1", { role: "co_signer", label: "Co-buyer" }),
      row("Cy", "3"),
    ]);
    const three = [...roles, { label: "Dealer", role: "signer", routingOrder: 2 }];
    expect(apply([row("Ann", "1")], { type: "template", roles: three })).toEqual([
      row("Ann", "1", { label: "Buyer" }),
      { name: "", email: "", role: "co_signer", routingOrder: "1", label: "Co-buyer" },
      { name: "", email: "", role: "signer", routingOrder: "2", label: "Dealer" },
    ]);
    expect(apply(rows, { type: "template", roles: [] })).toBe(rows);
  });

  it("lets the caller adopt new rows (the client form gives each a key)", () => {
    let next = 10;
    const keyedApply = signerRowsReducer<SignerRow & { key: number }>((r) => ({ ...r, key: next++ }));
    const rows = [{ ...row("Ann", "1"), key: 1 }];
    expect(keyedApply(rows, { type: "add" }).map((r) => r.key)).toEqual([1, 10]);
    expect(keyedApply(rows, { type: "remove", index: 0 }).map((r) => r.key)).toEqual([11]);
  });

  it.each<[string, SignerRowAction | undefined]>([
    ["add-signer", { type: "add" }],
    ["remove:2", { type: "remove", index: 2 }],
    ["up:1", { type: "move", index: 1, by: -1 }],
    ["down:0", { type: "move", index: 0, by: 1 }],
    ["save", undefined],
    ["send", undefined],
    ["remove:101", undefined],
    ["up:-1", undefined],
    ["down:1x", undefined],
  ])("the row button intent %s", (intent, action) => {
    expect(parseRowIntent(intent)).toEqual(action);
    if (action && action.type !== "update" && action.type !== "template") expect(rowIntent(action)).toBe(intent);
  });

  it("the template intent carries no roles (the server looks them up)", () => {
    expect(parseRowIntent("template")).toEqual({ type: "template" });
    expect(rowIntent({ type: "template" })).toBe("template");
    expect(parseRowIntent(null)).toBeUndefined();
  });
});

describe("signer rows: proof of identity", () => {
  it("reads a row's method, access code and phone from the posted values, and a template role's method onto its row", () => {
    const rows = signerRowsFromValues({
      "signers.0.name": "A", "signers.0.email": "a@x.test", "signers.0.authMethod": "access_code", "signers.0.accessCode": "1234", "signers.0.keepsAccessCode": "1",
      "signers.1.name": "B", "signers.1.email": "b@x.test", "signers.1.authMethod": "", "signers.1.phone": "+15125550123",
    });
    expect(rows[0]).toMatchObject({ authMethod: "access_code", accessCode: "1234", keepsAccessCode: "1" });
    expect(rows[1]!.authMethod).toBeUndefined();
    expect(rowNeedsAccessCodeInput(rows[0]!, "email_code")).toBe(true);
    expect(rowNeedsAccessCodeInput(rows[1]!, "email_code")).toBe(false);
    expect(rowNeedsPhoneInput(rows[1]!, "sms_code")).toBe(true);
    const applied = signerRowsReducer((row) => row)(rows, {
      type: "template",
      roles: [
        { label: "Buyer", role: "signer", routingOrder: 1 },
        { label: "Co-buyer", role: "co_signer", routingOrder: 1, authMethod: "sms_code" },
      ],
    });
    expect(applied.map((r) => r.authMethod)).toEqual(["access_code", "sms_code"]);
  });
});
