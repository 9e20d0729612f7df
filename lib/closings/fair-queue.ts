/**
 * A queue of turns shared by several owners (organizations), fair across them: at most `slots` turns
 * run at once, one owner holds at most `perOwner` of them, and a freed slot goes to the next owner in
 * turn that has one waiting, never simply to the oldest waiter. So an organization
 * with a long or hostile file holds at most `perOwner` slots, one page at a time, and another
 * organization's scan starts at once when a slot is free or after one page when none is. A slot
 * nobody waits for may be borrowed beyond the share (`borrow`), and is called back as soon as
 * another owner waits.
 */
export type FairQueue = {
  /** Waits for a turn; call the returned function once the turn is over. */
  acquire(owner: string): Promise<() => void>;
  /**
   * A turn beyond the owner's share, only when a slot is free and nobody waits (else null): one owner's
   * large file may use the idle slot. The moment another owner has to wait, `onRevoke` is called: the
   * holder stops its page at once (it is redone in the owner's own turns) and releases, so another
   * organization still waits for no borrowed turn. Call the returned function once the turn is over.
   */
  borrow(owner: string, onRevoke: () => void): (() => void) | null;
  /** Turns running and waiting, for tests and logs. */
  stats(): { running: number; waiting: number };
};

export function createFairQueue(options: { slots: number; perOwner: number }): FairQueue {
  const running = new Map<string, number>();
  const waiting = new Map<string, { arrived: number; grant: () => void }[]>();
  /** When each owner last got a turn (a counter); an owner never served goes before everyone served. */
  const lastServed = new Map<string, number>();
  let clock = 0;
  let total = 0;
  /** Borrowed turns (counted in `total`, not in their owner's share), with how to call each back. */
  const borrowed = new Map<number, { owner: string; revoke: () => void; revoked: boolean }>();

  const start = (owner: string) => {
    total++;
    running.set(owner, (running.get(owner) ?? 0) + 1);
    lastServed.set(owner, ++clock);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      total--;
      const left = (running.get(owner) ?? 1) - 1;
      if (left === 0) running.delete(owner);
      else running.set(owner, left);
      forgetIdle();
      dispatch();
    };
  };

  /** Keeps the memory of who was served bounded: past many owners, idle ones are forgotten. */
  const forgetIdle = () => {
    if (lastServed.size <= 10_000) return;
    for (const owner of lastServed.keys()) if (!running.has(owner) && !waiting.has(owner)) lastServed.delete(owner);
  };

  /** Freed slots go to the waiting owner served least recently (then the one waiting longest) that is under its share. */
  const dispatch = () => {
    while (total < options.slots) {
      let next: string | undefined;
      let best: [number, number] | undefined;
      for (const [owner, queue] of waiting) {
        if ((running.get(owner) ?? 0) >= options.perOwner) continue;
        const key: [number, number] = [lastServed.get(owner) ?? 0, queue[0]!.arrived];
        if (!best || key[0] < best[0] || (key[0] === best[0] && key[1] < best[1])) {
          best = key;
          next = owner;
        }
      }
      if (next === undefined) return;
      const queue = waiting.get(next)!;
      const { grant } = queue.shift()!;
      if (queue.length === 0) waiting.delete(next);
      grant();
    }
  };

  return {
    acquire(owner) {
      return new Promise((resolve) => {
        const entry = { arrived: ++clock, grant: () => resolve(start(owner)) };
        const queue = waiting.get(owner);
        if (queue) queue.push(entry);
        else waiting.set(owner, [entry]);
        dispatch();
        // Still waiting while another owner holds a borrowed turn: call that turn back.
        if (waiting.get(owner)?.includes(entry)) {
          for (const turn of borrowed.values()) {
            if (turn.owner === owner || turn.revoked) continue;
            turn.revoked = true;
            turn.revoke();
            break;
          }
        }
      });
    },
    borrow(owner, onRevoke) {
      if (total >= options.slots || waiting.size > 0) return null;
      const id = ++clock;
      total++;
      borrowed.set(id, { owner, revoke: onRevoke, revoked: false });
      let done = false;
      return () => {
        if (done) return;
        done = true;
        total--;
        borrowed.delete(id);
        dispatch();
      };
    },
    stats() {
      let queued = 0;
      for (const queue of waiting.values()) queued += queue.length;
      return { running: total, waiting: queued };
    },
  };
}
