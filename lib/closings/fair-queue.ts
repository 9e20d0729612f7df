/**
 * A queue of turns shared by several owners (organizations), fair across them: at most `slots` turns
 * run at once, one owner holds at most `perOwner` of them, and a freed slot goes to the next owner in
 * round-robin order that has a turn waiting, never simply to the oldest waiter. So an organization
 * with a long or hostile file holds at most `perOwner` slots, one page at a time, and another
 * organization's scan starts at once when a slot is free or after one page when none is.
 */
export type FairQueue = {
  /** Waits for a turn; call the returned function once the turn is over. */
  acquire(owner: string): Promise<() => void>;
  /** Turns running and waiting, for tests and logs. */
  stats(): { running: number; waiting: number };
};

export function createFairQueue(options: { slots: number; perOwner: number }): FairQueue {
  const running = new Map<string, number>();
  const waiting = new Map<string, (() => void)[]>();
  /** Owners in the order they get turns; the head is served next. */
  const ring: string[] = [];
  let total = 0;

  const start = (owner: string) => {
    total++;
    running.set(owner, (running.get(owner) ?? 0) + 1);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      total--;
      const left = (running.get(owner) ?? 1) - 1;
      if (left === 0) running.delete(owner);
      else running.set(owner, left);
      dispatch();
    };
  };

  const dispatch = () => {
    for (let scanned = 0; total < options.slots && scanned < ring.length; ) {
      const owner = ring[0]!;
      const queue = waiting.get(owner);
      if (!queue || queue.length === 0) {
        ring.shift();
        waiting.delete(owner);
        continue;
      }
      // This owner goes to the back of the ring whether or not it gets a turn now.
      ring.push(ring.shift()!);
      if ((running.get(owner) ?? 0) >= options.perOwner) {
        scanned++;
        continue;
      }
      scanned = 0;
      queue.shift()!();
    }
  };

  return {
    acquire(owner) {
      return new Promise((resolve) => {
        const queue = waiting.get(owner);
        const grant = () => resolve(start(owner));
        if (queue) queue.push(grant);
        else {
          waiting.set(owner, [grant]);
          ring.push(owner);
        }
        dispatch();
      });
    },
    stats() {
      let queued = 0;
      for (const queue of waiting.values()) queued += queue.length;
      return { running: total, waiting: queued };
    },
  };
}
