import type { ComponentProps, ReactNode } from "react";
import { PageHeader, type Crumb } from "@/components/ui/page-header";
import { Section } from "@/components/ui/section";
import { DeleteDialogForm } from "../../_shared/delete-dialog-form";

/** A titled card whose content is one form (new child, settings). */
type FormSection = { id: string; title: string; form: ReactNode };

/**
 * The page of one place (organization, company or location): the trail up and the h1, what it
 * holds (`children`: the next level down), a form for adding to it, and its settings with the
 * delete dialog. A section the viewer may not use is left out (pass undefined); `readOnlyNote`
 * stands in for the settings of a viewer who may not change them.
 */
export function PlaceDetail({
  crumbs,
  title,
  intro,
  children,
  add,
  settings,
  readOnlyNote,
}: {
  crumbs: Crumb[];
  title: string;
  intro: ReactNode;
  children?: ReactNode;
  add?: FormSection;
  settings?: FormSection & { delete: ComponentProps<typeof DeleteDialogForm> };
  readOnlyNote?: string;
}) {
  return (
    <div className="space-y-6">
      <PageHeader crumbs={crumbs} title={title}>
        {intro}
      </PageHeader>

      {children}

      {add ? (
        <Section id={add.id} title={add.title}>
          {add.form}
        </Section>
      ) : null}

      {settings ? (
        <Section id={settings.id} title={settings.title}>
          {settings.form}
          <div className="border-t border-slate-200 pt-4">
            <DeleteDialogForm {...settings.delete} />
          </div>
        </Section>
      ) : readOnlyNote ? (
        <p className="text-sm text-slate-700">{readOnlyNote}</p>
      ) : null}
    </div>
  );
}
