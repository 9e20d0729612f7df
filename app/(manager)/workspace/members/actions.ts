"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { ChangeRoleSchema, InviteMemberSchema } from "@/lib/api/schemas/workspace";
import { changeMemberRole } from "@/lib/workspace/change-member-role";
import { inviteMember } from "@/lib/workspace/invite-member";
import { removeMembership } from "@/lib/workspace/remove-membership";
import { requestEvidence } from "../../../_lib/request-evidence";
import { validatedAction, type FormState } from "../../../_lib/validated-action";

const PATH = "/workspace/members";

const text = (formData: FormData, name: string) => {
  const value = formData.get(name);
  return typeof value === "string" ? value : undefined;
};

/** The invite form's fields in the API's shape: `scope` is "organization", "company:<id>" or "location:<id>". */
function inviteInput(formData: FormData) {
  const scope = text(formData, "scope") ?? "organization";
  const [kind, id] = scope.split(":");
  const name = text(formData, "name")?.trim();
  return {
    email: text(formData, "email")?.trim(),
    ...(name ? { name } : {}),
    role: text(formData, "role"),
    organizationId: Number(text(formData, "organizationId")),
    ...(kind === "company" ? { companyId: Number(id) } : {}),
    ...(kind === "location" ? { locationId: Number(id) } : {}),
  };
}

export const inviteMemberAction = validatedAction(
  InviteMemberSchema,
  async (input, { db, principal }): Promise<FormState> => {
    const membership = await inviteMember(db, { principal, ...input, ipAddress: (await requestEvidence()).ipAddress });
    revalidatePath(PATH);
    return { status: "ok", message: `Invitation sent to ${membership.user.email}.` };
  },
  { returnTo: PATH, toInput: inviteInput },
);

export const changeRoleAction = validatedAction(
  ChangeRoleSchema.extend({ membershipId: z.uuid() }),
  async ({ membershipId, role }, { db, principal }): Promise<FormState> => {
    const membership = await changeMemberRole(db, { principal, membershipId, role, ipAddress: (await requestEvidence()).ipAddress });
    revalidatePath(PATH);
    return { status: "ok", message: `${membership.user.name} is now ${roleLabel(membership.role)}.` };
  },
  { returnTo: PATH, toInput: (formData) => ({ membershipId: text(formData, "membershipId"), role: text(formData, "role") }) },
);

export const removeMemberAction = validatedAction(
  z.object({ membershipId: z.uuid() }),
  async ({ membershipId }, { db, principal }): Promise<FormState> => {
    await removeMembership(db, { principal, membershipId, ipAddress: (await requestEvidence()).ipAddress });
    revalidatePath(PATH);
    return { status: "ok", message: "Member removed." };
  },
  { returnTo: PATH, toInput: (formData) => ({ membershipId: text(formData, "membershipId") }) },
);

function roleLabel(role: string): string {
  return role === "org_admin" ? "an organization admin" : role === "manager" ? "a manager" : "a signer";
}
