import type { ComponentProps, ReactNode } from "react";
import { PageHeader, type Crumb } from "@/components/ui/page-header";
import { EmptyState, Section } from "@/components/ui/section";
import type { FormState } from "@/app/_lib/validated-action";
import { DeleteDialogForm } from "../../_shared/delete-dialog-form";
import { NextPageLink } from "../../_shared/next-page-link";
import { LocationForm } from "./location-form";
import { NameForm } from "./name-form";

type Action = (previous: FormState, formData: FormData) => Promise<FormState>;

/**
 * The form that adds to the place, under "New <noun>": a company by its name, a location with its
 * address and time zone. `hidden` names the parent (`organizationId`, `companyId`).
 */
type AddSection = { noun: "company" | "location"; action: Action; hidden: Record<string, string> };

/**
 * The next level down, one page of it (`children` show `page.rows` as a table or a tree), under
 * `title` ("Companies", "Locations"); a sentence when there is none. Paged by keyset from `path`.
 */
type PlaceList = {
  title: "Companies" | "Locations";
  page: { rows: unknown[]; nextCursor: string | null };
  /** The viewer may add to the list (the empty sentence points at the form below). */
  canAdd: boolean;
  path: string;
  cursor?: string;
};

/**
 * The settings of the place and its delete dialog. `noun` names the ids, the heading
 * ("Company settings") and the delete buttons ("Delete company"); `rename` stands for the form of a
 * place whose only setting is its name.
 */
type Settings = {
  noun: "organization" | "company" | "location";
  /** The place's name, in the delete dialog's title and as the rename form's value. */
  name: string;
  /** The heading when it is not "<Noun> settings", with the id of the heading. */
  heading?: { id: string; title: string };
  deleteRule: string;
  deleteAction: ComponentProps<typeof DeleteDialogForm>["action"];
} & ({ form: ReactNode; rename?: never } | { rename: Action; form?: never });

const capitalized = (noun: string) => noun.charAt(0).toUpperCase() + noun.slice(1);

/**
 * The page of one place (organization, company or location): the trail up and the h1, what it
 * holds (`list` with `children`: the next level down), a form for adding to it, and its settings
 * with the delete dialog. A section the viewer may not use is left out (pass false);
 * `readOnlyNote` stands in for the settings of a viewer who may not change them.
 */
export function PlaceDetail({
  crumbs,
  title,
  intro,
  list,
  children,
  add,
  settings,
  readOnlyNote,
}: {
  crumbs: Crumb[];
  title: string;
  intro: ReactNode;
  list?: PlaceList;
  children?: ReactNode;
  /** Left out (false) for a viewer who may not add. */
  add?: AddSection | false;
  /** Left out (false) for a viewer who may not change the place. */
  settings?: Settings | false;
  readOnlyNote?: string;
}) {
  return (
    <div className="space-y-6">
      <PageHeader crumbs={crumbs} title={title}>
        {intro}
      </PageHeader>

      {list ? <ListSection {...list}>{children}</ListSection> : children}

      {add ? (
        <Section id={`new-${add.noun}-heading`} title={`New ${add.noun}`}>
          {add.noun === "location" ? (
            <LocationForm action={add.action} idPrefix="new-location" hidden={add.hidden} submitLabel="Add location" pendingLabel="Adding…" />
          ) : (
            <NameForm action={add.action} idPrefix="new-company" label="Company name" hidden={add.hidden} submitLabel="Add company" pendingLabel="Adding…" />
          )}
        </Section>
      ) : null}

      {settings ? <SettingsSection {...settings} /> : readOnlyNote ? <p className="text-sm text-slate-700">{readOnlyNote}</p> : null}
    </div>
  );
}

function ListSection({ title, page, canAdd, path, cursor, children }: PlaceList & { children?: ReactNode }) {
  const plural = title.toLowerCase();
  return (
    <Section id={`${plural}-heading`} title={title}>
      {page.rows.length === 0 ? <EmptyState>{canAdd ? `No ${plural} yet. Add the first one below.` : `No ${plural} you can see.`}</EmptyState> : children}
      <NextPageLink path={path} cursor={cursor} nextCursor={page.nextCursor} label={title} />
    </Section>
  );
}

function SettingsSection({ noun, name, heading, deleteRule, deleteAction, form, rename }: Settings) {
  const Noun = capitalized(noun);
  const { id, title } = heading ?? { id: `${noun}-settings-heading`, title: `${Noun} settings` };
  return (
    <Section id={id} title={title}>
      {rename ? (
        <NameForm action={rename} idPrefix={noun} label={`${Noun} name`} defaultName={name} submitLabel="Save name" pendingLabel="Saving…" />
      ) : (
        form
      )}
      <div className="border-t border-slate-200 pt-4">
        <DeleteDialogForm
          id={`delete-${noun}`}
          title={`Delete ${name}?`}
          description={`${deleteRule} This cannot be undone.`}
          openLabel={`Delete ${noun}`}
          confirmLabel={`Delete ${noun}`}
          action={deleteAction}
        />
      </div>
    </Section>
  );
}
