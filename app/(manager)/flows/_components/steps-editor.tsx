"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { FLOW_STEPS, type FlowStep } from "@/db/values/flow-step-values";
import { STEP_LABELS } from "../step-labels";

const selectClass =
  "block rounded-md border border-slate-400 bg-white px-3 py-2 text-base text-slate-900 shadow-sm focus:border-blue-600 focus:outline-2 focus:outline-offset-0 focus:outline-blue-600";

/**
 * A flow's steps in order, posted as repeated `steps` fields. Moving, removing and adding steps need
 * JavaScript; without it the steps as rendered are saved. The API's rules (sign included, done last,
 * no repeats) are checked on save and shown in `error`.
 */
export function StepsEditor({ idPrefix, initial, error }: { idPrefix: string; initial: FlowStep[]; error?: string }) {
  const [steps, setSteps] = useState<FlowStep[]>(initial);
  const missing = FLOW_STEPS.filter((s) => !steps.includes(s));
  const [toAdd, setToAdd] = useState<FlowStep | "">("");
  const [announcement, setAnnouncement] = useState("");
  const adding = toAdd && missing.includes(toAdd) ? toAdd : (missing[0] ?? "");

  const focus = (id: string) => requestAnimationFrame(() => document.getElementById(id)?.focus());
  const move = (index: number, by: -1 | 1) => {
    const target = index + by;
    if (target < 0 || target >= steps.length) return;
    const next = [...steps];
    [next[index], next[target]] = [next[target]!, next[index]!];
    setSteps(next);
    setAnnouncement(`${STEP_LABELS[steps[index]!]} moved to position ${target + 1} of ${steps.length}.`);
    const edge = target === 0 || target === steps.length - 1;
    focus(`${idPrefix}-step-${steps[index]}-${edge ? (by < 0 ? "down" : "up") : by < 0 ? "up" : "down"}`);
  };
  const remove = (index: number) => {
    setAnnouncement(`${STEP_LABELS[steps[index]!]} removed.`);
    setSteps(steps.filter((_, i) => i !== index));
    focus(`${idPrefix}-add-step`);
  };
  const add = () => {
    if (!adding) return;
    // A new step goes before "done" when the flow ends with it (the API wants done last).
    const at = steps[steps.length - 1] === "done" && adding !== "done" ? steps.length - 1 : steps.length;
    setSteps([...steps.slice(0, at), adding, ...steps.slice(at)]);
    setAnnouncement(`${STEP_LABELS[adding]} added at position ${at + 1}.`);
    setToAdd("");
  };

  return (
    <fieldset className="space-y-3" aria-describedby={error ? `${idPrefix}-steps-error` : `${idPrefix}-steps-hint`}>
      <legend className="text-sm font-medium text-slate-900">Steps, in order</legend>
      <p id={`${idPrefix}-steps-hint`} className="text-xs text-slate-600">
        What each signer goes through. A flow includes Sign and ends with Done; a step appears once.
      </p>
      {error ? (
        <p id={`${idPrefix}-steps-error`} className="text-sm text-red-800">
          {error}
        </p>
      ) : null}
      <ol className="space-y-2" aria-label="Steps">
        {steps.map((step, index) => (
          <li key={step} className="flex flex-wrap items-center justify-between gap-2 rounded-md border border-slate-200 bg-slate-50 px-3 py-2">
            <input type="hidden" name="steps" value={step} />
            <span className="text-sm font-medium text-slate-900">
              <span className="mr-2 inline-flex h-6 w-6 items-center justify-center rounded-full bg-slate-200 text-xs text-slate-800">{index + 1}</span>
              {STEP_LABELS[step]}
            </span>
            <span className="flex flex-wrap gap-1">
              <Button id={`${idPrefix}-step-${step}-up`} variant="ghost" className="px-2 py-1" onClick={() => move(index, -1)} disabled={index === 0}>
                Move up<span className="sr-only"> {STEP_LABELS[step]}</span>
              </Button>
              <Button
                id={`${idPrefix}-step-${step}-down`}
                variant="ghost"
                className="px-2 py-1"
                onClick={() => move(index, 1)}
                disabled={index === steps.length - 1}
              >
                Move down<span className="sr-only"> {STEP_LABELS[step]}</span>
              </Button>
              <Button variant="ghost" className="px-2 py-1 text-red-800" onClick={() => remove(index)}>
                Remove<span className="sr-only"> {STEP_LABELS[step]}</span>
              </Button>
            </span>
          </li>
        ))}
      </ol>
      {missing.length > 0 ? (
        <div className="flex flex-wrap items-end gap-2">
          <div className="space-y-1">
            <label htmlFor={`${idPrefix}-new-step`} className="block text-sm font-medium text-slate-900">
              Step to add
            </label>
            <select id={`${idPrefix}-new-step`} value={adding} onChange={(e) => setToAdd(e.target.value as FlowStep)} className={selectClass}>
              {missing.map((step) => (
                <option key={step} value={step}>
                  {STEP_LABELS[step]}
                </option>
              ))}
            </select>
          </div>
          <Button id={`${idPrefix}-add-step`} variant="secondary" onClick={add}>
            Add step
          </Button>
        </div>
      ) : null}
      <p role="status" aria-live="polite" className="sr-only">
        {announcement}
      </p>
    </fieldset>
  );
}
