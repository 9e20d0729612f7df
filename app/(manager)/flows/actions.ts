"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { validatedAction, type FormState } from "@/app/_lib/validated-action";
import { CreateFlowSchema, UpdateFlowSchema } from "@/lib/api/schemas/templates";
import { createFlow } from "@/lib/flows/create-flow";
import { updateFlow } from "@/lib/flows/update-flow";

// The flows console's writes: the /v1 schemas parse the form (steps in the posted order), the /v1 domain functions act.

const steps = (formData: FormData) => formData.getAll("steps").filter((s) => typeof s === "string");
const flowPath = (id: string) => `/flows/${encodeURIComponent(id)}`;

const createFlowForm = validatedAction(
  CreateFlowSchema,
  async (input, { db, principal, evidence: { ipAddress } }) => {
    const flow = await createFlow(db, { principal, ...input, ipAddress });
    revalidatePath("/flows");
    redirect(flowPath(flow.id));
  },
  {
    returnTo: "/flows",
    toInput: (formData, fields) => {
      return {
        organizationId: fields.int("organizationId") ?? "",
        name: fields.text("name"),
        steps: steps(formData),
        isDefault: formData.get("isDefault") === "on",
      };
    },
  },
);

export async function createFlowAction(previous: FormState, formData: FormData): Promise<FormState> {
  return createFlowForm(previous, formData);
}

export async function updateFlowAction(flowId: string, previous: FormState, formData: FormData): Promise<FormState> {
  return validatedAction(
    UpdateFlowSchema,
    async (input, { db, principal, evidence: { ipAddress } }) => {
      await updateFlow(db, { principal, flowId, ...input, ipAddress });
      revalidatePath("/flows", "layout");
      return { status: "ok", message: "Flow saved." };
    },
    {
      returnTo: flowPath(flowId),
      toInput: (formData, fields) => ({
        name: fields.text("name"),
        steps: steps(formData),
        ...(formData.get("isDefault") === "on" ? { isDefault: true } : {}),
      }),
    },
  )(previous, formData);
}
