import type { Metadata } from "next";
import Link from "next/link";
import { hasCapability } from "@/lib/auth/principal";
import { getLocationOrThrow } from "@/lib/locations/get-location-or-throw";
import { getSigningDetail } from "@/lib/signings/get-signing-detail";
import { attachmentRequestLines } from "@/lib/attachments/attachment-request-schema";
import { listPackageAttachments } from "@/lib/attachments/list-attachments";
import { getTemplateOrThrow } from "@/lib/templates/get-template-or-throw";
import { requirePrincipal } from "../../../../_lib/require-principal";
import { loadOr404, loadOrNull } from "@/app/_lib/load-or-404";
import { loadFormOptions } from "../../_signing-form/load-form-options";
import { signerRowsToValues } from "../../_signing-form/signer-rows";
import { SigningForm } from "../../_signing-form/signing-form";
import { formatDateTime } from "@/lib/format";
import { dateTimeLocalValue } from "@/lib/closings/closing-appointment";

export const metadata: Metadata = { title: "Edit package" };


type Props = { params: Promise<{ id: string }>; searchParams: Promise<{ saved?: string }> };

export default async function EditSigningPage({ params, searchParams }: Props) {
  const { id } = await params;
  const { saved } = await searchParams;
  const { db, principal } = await requirePrincipal(`/signings/${encodeURIComponent(id)}/edit`);
  if (!hasCapability(principal, "signings:write")) {
    return (
      <div className="max-w-2xl space-y-3">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Edit package</h1>
        <p className="text-slate-800">Your role lets you read packages but not change them.</p>
        <Link href={`/signings/${encodeURIComponent(id)}`} className="text-blue-800 underline">
          View the package
        </Link>
      </div>
    );
  }
  const signing = await loadOr404(getSigningDetail(db, { principal, packageId: id }));

  if (signing.status !== "draft") {
    return (
      <div className="max-w-2xl space-y-3">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{signing.title}</h1>
        <p role="status" className="rounded-md border border-amber-300 bg-amber-50 p-4 text-slate-900">
          This package is {signing.status.replace("_", " ")}
          {signing.sentAt ? ` (sent ${formatDateTime(signing.sentAt)})` : ""}: its documents and signers are frozen. Only a draft
          can be edited; to correct a sent package, cancel it and create a new one.
        </p>
        <Link href={`/signings/${signing.id}`} className="text-blue-800 underline">
          View the package
        </Link>
      </div>
    );
  }

  const [options, location, template, requests] = await Promise.all([
    loadFormOptions(db, principal),
    getLocationOrThrow(db, { principal, locationId: signing.locationId, capability: "signings:write" }),
    signing.templateId ? loadOrNull(getTemplateOrThrow(db, { principal, templateId: signing.templateId, capability: "templates:read" }), { forbiddenToo: true }) : null,
    listPackageAttachments(db, { principal, packageId: signing.id }),
  ]);
  const place = options.places.find((p) => p.id === signing.locationId);
  const initialValues = signerRowsToValues(
    signing.signers.map((s) => ({
      id: s.id,
      name: s.name,
      email: s.email,
      role: s.role,
      routingOrder: String(s.routingOrder),
      authMethod: s.authMethod ?? "",
      phone: s.phone ?? "",
      ...(s.smsConsentAt ? { smsConsent: "on" } : {}),
      // The access code is write-only: the form only learns that one is stored.
      keepsAccessCode: s.accessCodeHash !== null ? "1" : "",
      language: s.language ?? "",
      attachments: attachmentRequestLines(requests.filter((r) => r.signerId === s.id)),
    })),
    {
      title: signing.title,
      message: signing.message ?? "",
      flowId: signing.flowId ?? "",
      signerAuthMethod: signing.signerAuthMethod,
      closingAt: dateTimeLocalValue(signing.closingAt),
      esignOpensAt: dateTimeLocalValue(signing.esignOpensAt),
      closingPlace: signing.closingPlace ?? "",
      settlementAgent: signing.settlementAgent ?? "",
    },
  );
  return (
    <div className="mx-auto max-w-4xl space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="space-y-1">
          <p className="text-sm font-medium text-slate-700">Draft</p>
          <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Edit “{signing.title}”</h1>
        </div>
        <Link href={`/signings/${signing.id}`} className="text-sm text-blue-800 underline">
          View the package
        </Link>
      </div>
      <SigningForm
        // A save redirects to this same page: a new key drops the form's local state (picked files,
        // rows without ids) so it starts again from what was stored.
        key={[signing.updatedAt.toISOString(), ...signing.signers.map((s) => `${s.id}:${s.updatedAt.toISOString()}`), ...signing.documents.map((d) => `${d.id}:${d.executionMode}`)].join(",")}
        {...options}
        signing={{
          id: signing.id,
          locationId: signing.locationId,
          locationLabel: place ? `${place.group} › ${place.label}` : location.name,
          templateName: template?.name,
        }}
        documents={signing.documents.map((d) => ({ id: d.id, name: d.name, pageCount: d.pageCount, executionMode: d.executionMode, transferable: d.transferable }))}
        initialValues={initialValues}
        savedMessage={saved === "1" ? "Draft saved." : undefined}
      />
    </div>
  );
}
