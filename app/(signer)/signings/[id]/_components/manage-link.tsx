import { focusRing } from "@/components/ui/classes";

const linkClass = `font-medium text-blue-800 underline underline-offset-2 hover:text-blue-900 ${focusRing}`;

/** For a signer who also manages the package: the way to its manager's view (`?view=manage`). */
export function ManageLink({ signingId }: { signingId: string }) {
  return (
    <p className="mb-4 text-sm">
      <a href={`/signings/${signingId}?view=manage`} className={linkClass}>
        Manage this package
      </a>{" "}
      <span className="text-slate-700">(you are also one of its managers)</span>
    </p>
  );
}
