import { describe, expect, it } from "vitest";
import { z } from "zod";
import { BACKOFF_MAX_MS, computeBackoffMs } from "@/lib/jobs/compute-backoff";
import { defineJob } from "@/lib/jobs/define-job";
import { createJobRegistry } from "@/lib/jobs/create-job-registry";

describe("computeBackoffMs", () => {
  it("doubles from 2 s with up to half of the delay as jitter", () => {
    expect(computeBackoffMs(1, () => 0)).toBe(1_000);
    expect(computeBackoffMs(1, () => 1)).toBe(2_000);
    expect(computeBackoffMs(2, () => 1)).toBe(4_000);
    expect(computeBackoffMs(5, () => 0.5)).toBe(24_000);
  });

  it("caps at 10 minutes however many attempts failed", () => {
    expect(computeBackoffMs(10, () => 1)).toBe(BACKOFF_MAX_MS);
    expect(computeBackoffMs(50, () => 1)).toBe(BACKOFF_MAX_MS);
    expect(computeBackoffMs(50, () => 0)).toBe(BACKOFF_MAX_MS / 2);
  });

  it("spreads retries of jobs that failed together", () => {
    const delays = new Set(Array.from({ length: 20 }, () => computeBackoffMs(4)));
    expect(delays.size).toBeGreaterThan(1);
    for (const delay of delays) {
      expect(delay).toBeGreaterThanOrEqual(8_000);
      expect(delay).toBeLessThanOrEqual(16_000);
    }
  });
});

describe("defineJob and the registry", () => {
  const schema = z.object({ id: z.string() });

  it("defaults to 8 attempts and rejects counts Inngest cannot retry", () => {
    expect(defineJob({ name: "a-job", schema, handler: async () => {} }).maxAttempts).toBe(8);
    expect(() => defineJob({ name: "a-job", schema, maxAttempts: 0, handler: async () => {} })).toThrow(/maxAttempts/);
    expect(() => defineJob({ name: "a-job", schema, maxAttempts: 22, handler: async () => {} })).toThrow(/maxAttempts/);
  });

  it("rejects names that are not kebab-case and duplicate registrations", () => {
    expect(() => defineJob({ name: "Deliver Webhook", schema, handler: async () => {} })).toThrow(/kebab-case/);
    const job = defineJob({ name: "deliver", schema, handler: async () => {} });
    expect(() => createJobRegistry([job, job])).toThrow(/registered twice/);
  });
});
