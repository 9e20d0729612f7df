"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { createApiKey } from "@/lib/api-keys/create-api-key";
import { revokeApiKey } from "@/lib/api-keys/revoke-api-key";
import { loadOrNull } from "../../../_lib/load-or-404";
import { contextAction } from "../../../_lib/validated-action";

export type CreateApiKeyState =
  | { status: "idle" }
  | { status: "error"; message: string }
  | { status: "created"; key: string; name: string; prefix: string };

const CreateSchema = z.object({
  name: z.string().trim().min(1, "Give the key a name.").max(100, "Use at most 100 characters."),
  expiresInDays: z.enum(["never", "30", "90", "365"]),
});

const PATH = "/settings/api-keys";

const create = contextAction<CreateApiKeyState>(
  async ({ db, principal, fields }) => {
    const parsed = CreateSchema.safeParse({ name: fields.text("name"), expiresInDays: fields.text("expiresInDays") });
    if (!parsed.success) return { status: "error", message: parsed.error.issues[0]?.message ?? "Invalid input." };
    const { apiKey, key } = await createApiKey(db, {
      userId: principal.user.id,
      name: parsed.data.name,
      expiresInDays: parsed.data.expiresInDays === "never" ? null : Number(parsed.data.expiresInDays),
    });
    revalidatePath(PATH);
    return { status: "created", key, name: apiKey.name, prefix: apiKey.prefix };
  },
  { returnTo: PATH },
);

export async function createApiKeyAction(previous: CreateApiKeyState, formData: FormData): Promise<CreateApiKeyState> {
  return create(previous, formData);
}

const revoke = contextAction<void>(
  async ({ db, principal, fields }) => {
    const apiKeyId = fields.text("apiKeyId");
    if (apiKeyId === undefined) return;
    // Someone else's or an unknown key: nothing to revoke, and nothing to reveal.
    await loadOrNull(revokeApiKey(db, { userId: principal.user.id, apiKeyId }));
    revalidatePath(PATH);
  },
  { returnTo: PATH },
);

export async function revokeApiKeyAction(formData: FormData): Promise<void> {
  await revoke(undefined, formData);
}
