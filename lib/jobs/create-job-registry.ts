import type { JobDefinition } from "./define-job";

export type JobRegistry = ReadonlyMap<string, JobDefinition>;

/** Jobs by name; a name registered twice is a programming error. */
export function createJobRegistry(definitions: readonly JobDefinition[]): JobRegistry {
  const registry = new Map<string, JobDefinition>();
  for (const definition of definitions) {
    if (registry.has(definition.name)) throw new Error(`Job "${definition.name}" is registered twice.`);
    registry.set(definition.name, definition);
  }
  return registry;
}
