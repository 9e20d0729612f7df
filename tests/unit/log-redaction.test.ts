import { afterEach, describe, expect, it, vi } from "vitest";
import { setEnvForTests } from "@/lib/env";
import { log } from "@/lib/log";

// Every link that carries a single-use token opening someone's session stays out of the logs.

afterEach(() => vi.restoreAllMocks());

describe("log lines with a token link", () => {
  it.each(["access", "agent", "embed", "in-person"])("/%s/<token> is redacted in messages and fields", (prefix) => {
    setEnvForTests({ LOG_LEVEL: "debug" });
    const token = "q7Lm2xVb9RkT4wNc8ZyP3hJd6FsA1gUe5oKi0nBvCtX";
    const lines: string[] = [];
    vi.spyOn(console, "log").mockImplementation((line: string) => void lines.push(line));
    vi.spyOn(console, "error").mockImplementation((line: string) => void lines.push(line));
    log.info(`GET /${prefix}/${token}`, { url: `https://sign.example.com/${prefix}/${token}?x=1` });
    log.error("failed", { path: `/${prefix}/${token}` });
    expect(lines).toHaveLength(2);
    for (const line of lines) {
      expect(line).not.toContain(token);
      expect(line).toContain(`/${prefix}/[redacted]`);
    }
  });
});
