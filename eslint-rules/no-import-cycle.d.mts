import type { ESLint, Rule } from "eslint";

export declare function createImportGraph(
  root: string,
  aliases?: Record<string, string>,
): {
  resolveSpecifier(specifier: string, fromFile: string): string | undefined;
  cycleThrough(file: string, target: string): string[] | undefined;
};
export declare const noImportCycle: Rule.RuleModule;
declare const plugin: ESLint.Plugin;
export default plugin;
