import { describe, expect, it } from "vitest";
import { parseAddressList } from "@/lib/email/parse-address-list";

describe("parseAddressList", () => {
  it.each([
    ["acme@in.example", ["acme@in.example"]],
    ["Acme <ACME@In.Example>", ["acme@in.example"]],
    ['"victim@in.example" <acme@in.example>', ["acme@in.example"]],
    ["victim@in.example <acme@in.example>", ["acme@in.example"]],
    ["acme@in.example (victim@in.example)", ["acme@in.example"]],
    ['"a, b@in.example" <c@in.example>, d@in.example; e@in.example', ["c@in.example", "d@in.example", "e@in.example"]],
    ['"Escaped \\" victim@in.example" <acme@in.example>', ["acme@in.example"]],
    ["a@in.example, A@IN.EXAMPLE", ["a@in.example"]],
    ['"only a name victim@in.example"', []],
    ["not an address", []],
  ])("reads %j as %j", (input, expected) => {
    expect(parseAddressList(input)).toEqual(expected);
  });
});
