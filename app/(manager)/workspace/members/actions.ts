"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { ChangeRoleSchema, InviteMemberSchema } from "@/lib/api/schemas/workspace";
import { changeMemberRole } from "@/lib/workspace/change-member-role";
import { inviteMember } from "@/lib/workspace/invite-member";
import { removeMembership } from "@/lib/workspace/remove-membership";
import type { FormFields } from "../../../_lib/form-fields";
import { validatedAction, type FormState } from "../../../_lib/validated-action";

const PATH = "/workspace/members";

/** The invite form's fields in the API's shape: `scope` is "organization", "company:<id>" or "location:<id>". */
function inviteInput(_formData: FormData, { text }: FormFields) {
  const scope = text("scope") ?? "organization";
  const [kind, id] = scope.split(":");
  const name = text("name")?.trim();
  return {
    email: text("email")?.trim(),
    ...(name ? { name } : {}),
    role: text("role"),
    organizationId: Number(text("organizationId")),
    ...(kind === "company" ? { companyId: Number(id) } : {}),
    ...(kind === "location" ? { locationId: Number(id) } : {}),
  };
}

export const inviteMemberAction = validatedAction(
  InviteMemberSchema,
  async (input, { db, principal, evidence }): Promise<FormState> => {
    const membership = await inviteMember(db, { principal, ...input, ipAddress: evidence.ipAddress });
    revalidatePath(PATH);
    return { status: "ok", message: `Invitation sent to ${membership.user.email}.` };
  },
  { returnTo: PATH, toInput: inviteInput },
);

export const changeRoleAction = validatedAction(
  ChangeRoleSchema.extend({ membershipId: z.uuid() }),
  async ({ membershipId, role }, { db, principal, evidence }): Promise<FormState> => {
    const membership = await changeMemberRole(db, { principal, membershipId, role, ipAddress: evidence.ipAddress });
    revalidatePath(PATH);
    return { status: "ok", message: `${membership.user.name} is now ${roleLabel(membership.role)}.` };
  },
  { returnTo: PATH, toInput: (_formData, fields) => ({ membershipId: fields.text("membershipId"), role: fields.text("role") }) },
);

export const removeMemberAction = validatedAction(
  z.object({ membershipId: z.uuid() }),
  async ({ membershipId }, { db, principal, evidence }): Promise<FormState> => {
    await removeMembership(db, { principal, membershipId, ipAddress: evidence.ipAddress });
    revalidatePath(PATH);
    return { status: "ok", message: "Member removed." };
  },
  { returnTo: PATH, toInput: (_formData, fields) => ({ membershipId: fields.text("membershipId") }) },
);

function roleLabel(role: string): string {
  return role === "org_admin" ? "an organization admin" : role === "manager" ? "a manager" : "a signer";
}
