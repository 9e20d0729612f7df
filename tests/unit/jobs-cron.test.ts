import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineJob } from "@/lib/jobs/define-job";
import { latestCronTime } from "@/lib/jobs/latest-cron-time";
import { parseCronExpression } from "@/lib/jobs/parse-cron-expression";

const latest = (expression: string, at: string) => latestCronTime(parseCronExpression(expression), new Date(at))?.toISOString();

describe("parseCronExpression", () => {
  it("reads lists, ranges and steps", () => {
    const cron = parseCronExpression("*/15 9-17/4 1,15 */6 1-5");
    expect([...cron.minutes]).toEqual([0, 15, 30, 45]);
    expect([...cron.hours]).toEqual([9, 13, 17]);
    expect([...cron.daysOfMonth]).toEqual([1, 15]);
    expect([...cron.months]).toEqual([1, 7]);
    expect([...cron.daysOfWeek]).toEqual([1, 2, 3, 4, 5]);
    expect(parseCronExpression("5/20 * * * *").minutes).toEqual(new Set([5, 25, 45]));
  });

  it("reads 7 as Sunday", () => {
    expect(parseCronExpression("0 0 * * 5-7").daysOfWeek).toEqual(new Set([5, 6, 0]));
  });

  it.each([
    ["* * * *", /5 fields/],
    ["* * * * * *", /5 fields/],
    ["60 * * * *", /invalid minute "60"/],
    ["* 24 * * *", /invalid hour/],
    ["* * 0 * *", /invalid day of month/],
    ["* * * 13 *", /invalid month/],
    ["* * * * 8", /invalid day of week/],
    ["*/0 * * * *", /invalid minute/],
    ["5-1 * * * *", /invalid minute/],
    ["0 0 * JAN *", /invalid month "JAN"/],
    ["0 0 ? * MON", /invalid day of month/],
    ["", /5 fields/],
  ])("rejects %j", (expression, message) => {
    expect(() => parseCronExpression(expression)).toThrow(message);
  });
});

describe("latestCronTime (UTC)", () => {
  it("is the start of the current five-minute bucket for */5", () => {
    expect(latest("*/5 * * * *", "2032-03-04T10:04:59.999Z")).toBe("2032-03-04T10:00:00.000Z");
    expect(latest("*/5 * * * *", "2032-03-04T10:05:00.000Z")).toBe("2032-03-04T10:05:00.000Z");
    expect(latest("*/5 * * * *", "2032-03-04T10:05:30.000Z")).toBe("2032-03-04T10:05:00.000Z");
  });

  it("goes back across hours, days, months and years", () => {
    expect(latest("30 * * * *", "2032-03-04T10:29:00.000Z")).toBe("2032-03-04T09:30:00.000Z");
    expect(latest("0 3 * * *", "2032-03-04T02:59:00.000Z")).toBe("2032-03-03T03:00:00.000Z");
    expect(latest("0 0 1 * *", "2032-03-01T00:00:00.000Z")).toBe("2032-03-01T00:00:00.000Z");
    expect(latest("0 0 31 * *", "2032-03-04T00:00:00.000Z")).toBe("2032-01-31T00:00:00.000Z");
    expect(latest("0 12 25 12 *", "2032-03-04T00:00:00.000Z")).toBe("2031-12-25T12:00:00.000Z");
    expect(latest("59 23 29 2 *", "2031-02-01T00:00:00.000Z")).toBe("2028-02-29T23:59:00.000Z");
  });

  it("matches weekdays; with both day fields restricted, either one", () => {
    // 2032-03-04 is a Thursday.
    expect(latest("0 9 * * 1", "2032-03-04T12:00:00.000Z")).toBe("2032-03-01T09:00:00.000Z");
    expect(latest("0 9 * * 0", "2032-03-04T12:00:00.000Z")).toBe("2032-02-29T09:00:00.000Z");
    expect(latest("0 9 * * 7", "2032-03-04T12:00:00.000Z")).toBe("2032-02-29T09:00:00.000Z");
    expect(latest("0 9 2 * 1", "2032-03-04T12:00:00.000Z")).toBe("2032-03-02T09:00:00.000Z");
    expect(latest("0 9 13 * 5", "2032-03-04T12:00:00.000Z")).toBe("2032-02-27T09:00:00.000Z");
  });

  it("is undefined for a date the calendar never has", () => {
    expect(latest("0 0 30 2 *", "2032-03-04T00:00:00.000Z")).toBeUndefined();
  });
});

describe("defineJob({ schedule })", () => {
  const handler = async () => {};

  it("keeps a valid schedule", () => {
    expect(defineJob({ name: "sweep", schema: z.object({}), schedule: "*/5 * * * *", handler }).schedule).toBe("*/5 * * * *");
    expect(defineJob({ name: "plain", schema: z.object({}), handler }).schedule).toBeUndefined();
  });

  it("rejects a malformed schedule, one that never fires, and a schema that a scheduled run's {} fails", () => {
    expect(() => defineJob({ name: "sweep", schema: z.object({}), schedule: "every 5 minutes", handler })).toThrow(/5 fields/);
    expect(() => defineJob({ name: "sweep", schema: z.object({}), schedule: "0 0 30 2 *", handler })).toThrow(/never fires/);
    expect(() => defineJob({ name: "sweep", schema: z.object({ id: z.string() }), schedule: "* * * * *", handler })).toThrow(
      /must accept the scheduled payload \{\}/,
    );
  });
});
