import { SelectField } from "@/components/ui/field";
import { FormSection } from "./form-section";
import type { PlaceOption } from "./types";

/** Step 1: the location the package is sent from (fixed once the draft exists). */
export function WhereSection({
  locationLabel,
  places,
  locationId,
  onLocationChange,
  error,
}: {
  /** The draft's location; the choice is only offered for a new package. */
  locationLabel?: string;
  places: PlaceOption[];
  locationId: string;
  onLocationChange: (locationId: string) => void;
  error?: string;
}) {
  return (
    <FormSection id="where-heading" title="Where" step={1}>
      {locationLabel !== undefined ? (
        <p className="text-sm text-slate-800">
          <span className="font-medium">Location:</span> {locationLabel}
        </p>
      ) : places.length === 0 ? (
        <p className="text-sm text-slate-800">You manage no location, so you cannot create packages. Ask an administrator of your organization for a role.</p>
      ) : (
        <SelectField
          id="signing-location"
          name="locationId"
          label="Location"
          hint="Organization › company › location: the places you can send from."
          value={locationId}
          onChange={(event) => onLocationChange(event.currentTarget.value)}
          error={error}
          required
        >
          <option value="">Choose a location…</option>
          {[...new Set(places.map((p) => p.group))].map((group) => (
            <optgroup key={group} label={group}>
              {places
                .filter((p) => p.group === group)
                .map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.label}
                  </option>
                ))}
            </optgroup>
          ))}
        </SelectField>
      )}
    </FormSection>
  );
}
