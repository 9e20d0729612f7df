import { describe, expect, it } from "vitest";
import { createFairQueue } from "@/lib/closings/fair-queue";

/** Acquires a turn and records when it was granted. */
function take(queue: ReturnType<typeof createFairQueue>, owner: string, log: string[], label: string) {
  return queue.acquire(owner).then((release) => {
    log.push(label);
    return release;
  });
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("createFairQueue", () => {
  it("gives each owner at most its share and freed turns round-robin across owners, not first come first served", async () => {
    const queue = createFairQueue({ slots: 2, perOwner: 1 });
    const log: string[] = [];
    const a1 = take(queue, "a", log, "a1");
    void take(queue, "a", log, "a2");
    void take(queue, "a", log, "a3");
    const b1 = take(queue, "b", log, "b1");
    void take(queue, "b", log, "b2");
    void take(queue, "c", log, "c1");
    await tick();
    // Two slots: A's first and B's first; A's second waits although it came before B's.
    expect(log).toEqual(["a1", "b1"]);
    expect(queue.stats()).toEqual({ running: 2, waiting: 4 });
    (await a1)();
    await tick();
    // A's freed turn goes to C, who had none, not to A's next file.
    expect(log).toEqual(["a1", "b1", "c1"]);
    (await b1)();
    await tick();
    expect(log).toEqual(["a1", "b1", "c1", "a2"]);
  });

  it("lets one owner use every slot up to its share when nobody else waits, and releasing twice frees one turn", async () => {
    const queue = createFairQueue({ slots: 3, perOwner: 2 });
    const log: string[] = [];
    const first = take(queue, "a", log, "a1");
    void take(queue, "a", log, "a2");
    void take(queue, "a", log, "a3");
    await tick();
    expect(log).toEqual(["a1", "a2"]);
    const release = await first;
    release();
    release();
    await tick();
    expect(log).toEqual(["a1", "a2", "a3"]);
    expect(queue.stats()).toEqual({ running: 2, waiting: 0 });
  });
});
