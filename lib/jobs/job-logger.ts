import type { JobLogger } from "./define-job";

type LoggerLike = { [K in keyof JobLogger]: (msg: string, fields?: Record<string, unknown>) => void };

/** Adds the job's identity to every line a handler logs. */
export function createJobLogger(base: LoggerLike, jobFields: Record<string, unknown>): JobLogger {
  const at =
    (level: keyof JobLogger) =>
    (msg: string, fields?: Record<string, unknown>): void =>
      base[level](msg, { ...jobFields, ...fields });
  return { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}
