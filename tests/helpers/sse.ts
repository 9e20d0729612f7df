/** `id`: the event's SSE id, when it has one. */
export type SseEvent = { event: string; data: unknown; id?: string };

/** Reads server-sent events from a response body; `next` waits for the next event matching a predicate. */
export function readSse(response: Response) {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  const events: SseEvent[] = [];
  const waiters: (() => void)[] = [];
  let buffer = "";
  let done = false;
  void (async () => {
    try {
      for (;;) {
        const chunk = await reader.read();
        if (chunk.done) break;
        buffer += chunk.value;
        let end: number;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          let event = "message";
          let id: string | undefined;
          const data: string[] = [];
          for (const line of block.split("\n")) {
            if (line.startsWith("event:")) event = line.slice(6).trim();
            else if (line.startsWith("id:")) id = line.slice(3).trim();
            else if (line.startsWith("data:")) data.push(line.slice(5).trimStart());
          }
          if (data.length === 0) continue;
          events.push({ event, data: JSON.parse(data.join("\n")), ...(id === undefined ? {} : { id }) });
          waiters.splice(0).forEach((w) => w());
        }
      }
    } catch {
      // cancelled
    } finally {
      done = true;
      waiters.splice(0).forEach((w) => w());
    }
  })();
  let seen = 0;
  return {
    events,
    async next(predicate: (e: SseEvent) => boolean = () => true, timeoutMs = 5000): Promise<SseEvent> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        while (seen < events.length) {
          const e = events[seen++]!;
          if (predicate(e)) return e;
        }
        if (done) throw new Error("event stream ended");
        const remaining = deadline - Date.now();
        if (remaining <= 0) throw new Error(`no matching event within ${timeoutMs} ms; got ${JSON.stringify(events)}`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, remaining);
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
    },
    close: () => reader.cancel().catch(() => undefined),
  };
}
