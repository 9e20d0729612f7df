import { expect } from "vitest";
import { AppError } from "@/lib/errors";

/** Awaits `promise` and checks it failed with an AppError of this HTTP status (a number) or code (a string), and a message matching `message`. */
export async function expectAppError(promise: Promise<unknown>, statusOrCode: number | string, message?: RegExp): Promise<void> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  if (typeof statusOrCode === "number") expect((error as AppError).status).toBe(statusOrCode);
  else expect((error as AppError).code).toBe(statusOrCode);
  if (message) expect((error as AppError).message).toMatch(message);
}
