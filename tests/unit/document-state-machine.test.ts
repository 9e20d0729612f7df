import { describe, expect, it } from "vitest";
import type { DocumentExecutionStatus, ExecutionMode } from "@/db/schema";
import { canTransitionDocument, isDocumentDone } from "@/lib/packages/document-state-machine";

const STATES: DocumentExecutionStatus[] = ["pending", "esigned", "scan_uploaded", "accepted", "rejected", "acknowledged"];

// The literal table, written out by hand: mode → every allowed "from→to".
const ALLOWED: Record<ExecutionMode, string[]> = {
  esign: ["pending→esigned"],
  wet_sign: ["pending→scan_uploaded", "scan_uploaded→accepted", "scan_uploaded→rejected", "rejected→scan_uploaded"],
  notarize: ["pending→scan_uploaded", "scan_uploaded→accepted", "scan_uploaded→rejected", "rejected→scan_uploaded"],
  review_only: ["pending→acknowledged"],
};

describe("document execution state machine", () => {
  for (const mode of Object.keys(ALLOWED) as ExecutionMode[]) {
    it(`allows exactly the listed moves for ${mode}`, () => {
      const allowed: string[] = [];
      for (const from of STATES) for (const to of STATES) if (canTransitionDocument(mode, from, to)) allowed.push(`${from}→${to}`);
      expect(allowed.sort()).toEqual([...ALLOWED[mode]].sort());
    });
  }

  it("calls a document done only in its mode's final state", () => {
    expect(isDocumentDone({ executionMode: "esign", executionStatus: "esigned" })).toBe(true);
    expect(isDocumentDone({ executionMode: "wet_sign", executionStatus: "scan_uploaded" })).toBe(false);
    expect(isDocumentDone({ executionMode: "notarize", executionStatus: "accepted" })).toBe(true);
    expect(isDocumentDone({ executionMode: "wet_sign", executionStatus: "rejected" })).toBe(false);
    expect(isDocumentDone({ executionMode: "review_only", executionStatus: "acknowledged" })).toBe(true);
    expect(isDocumentDone({ executionMode: "review_only", executionStatus: "pending" })).toBe(false);
  });
});
