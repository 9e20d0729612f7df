import { Inngest } from "inngest";
import type { Logger } from "inngest";
import { getEnv, type Env } from "@/lib/env";
import { log } from "@/lib/log";

export const INNGEST_APP_ID = "closing-signing";

type Level = "debug" | "info" | "warn" | "error";

/** Routes the SDK's logs (and `ctx.logger` in functions) through `lib/log`, which redacts secrets. */
function toLibLog(level: Level) {
  return (...args: unknown[]): void => {
    const [first, second, ...rest] = args;
    if (typeof first === "string") {
      const fields = isPlainObject(second) && rest.length === 0 ? second : second === undefined ? undefined : { args: [second, ...rest] };
      log[level](first, fields);
    } else if (isPlainObject(first) && typeof second === "string") {
      log[level](second, first); // pino style: logger.info({ fields }, "message")
    } else {
      log[level]("inngest", { args });
    }
  };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Error);
}

const logger: Logger = { debug: toLibLog("debug"), info: toLibLog("info"), warn: toLibLog("warn"), error: toLibLog("error") };

export function createInngestClient(env: Env = getEnv(), options: { fetch?: typeof fetch } = {}) {
  return new Inngest({
    id: INNGEST_APP_ID,
    eventKey: env.INNGEST_EVENT_KEY,
    signingKey: env.INNGEST_SIGNING_KEY,
    // Explicit, so the SDK never guesses dev mode: without INNGEST_DEV it is cloud mode and verifies signatures.
    isDev: env.INNGEST_DEV,
    baseUrl: env.INNGEST_BASE_URL,
    logger,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}

export type InngestClient = ReturnType<typeof createInngestClient>;

let client: InngestClient | undefined;

/** The process-wide client, created on first use so importing this module never reads the environment. */
export function getInngest(): InngestClient {
  client ??= createInngestClient();
  return client;
}
