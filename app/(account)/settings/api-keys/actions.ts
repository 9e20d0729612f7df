"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { createApiKey } from "@/lib/api-keys/create-api-key";
import { revokeApiKey } from "@/lib/api-keys/revoke-api-key";
import { AppError } from "@/lib/errors";
import { requirePrincipal } from "../../../_lib/require-principal";

export type CreateApiKeyState =
  | { status: "idle" }
  | { status: "error"; message: string }
  | { status: "created"; key: string; name: string; prefix: string };

const CreateSchema = z.object({
  name: z.string().trim().min(1, "Give the key a name.").max(100, "Use at most 100 characters."),
  expiresInDays: z.enum(["never", "30", "90", "365"]),
});

const PATH = "/settings/api-keys";

export async function createApiKeyAction(_previous: CreateApiKeyState, formData: FormData): Promise<CreateApiKeyState> {
  const { db, principal } = await requirePrincipal(PATH);
  const parsed = CreateSchema.safeParse({ name: formData.get("name"), expiresInDays: formData.get("expiresInDays") });
  if (!parsed.success) return { status: "error", message: parsed.error.issues[0]?.message ?? "Invalid input." };
  const { apiKey, key } = await createApiKey(db, {
    userId: principal.user.id,
    name: parsed.data.name,
    expiresInDays: parsed.data.expiresInDays === "never" ? null : Number(parsed.data.expiresInDays),
  });
  revalidatePath(PATH);
  return { status: "created", key, name: apiKey.name, prefix: apiKey.prefix };
}

export async function revokeApiKeyAction(formData: FormData): Promise<void> {
  const { db, principal } = await requirePrincipal(PATH);
  const apiKeyId = formData.get("apiKeyId");
  if (typeof apiKeyId !== "string") return;
  try {
    await revokeApiKey(db, { userId: principal.user.id, apiKeyId });
  } catch (error) {
    // Someone else's or an unknown key: nothing to revoke, and nothing to reveal.
    if (!(error instanceof AppError && error.code === "not_found")) throw error;
  }
  revalidatePath(PATH);
}
