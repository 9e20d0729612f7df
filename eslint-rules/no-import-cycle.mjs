import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";

/**
 * `import/no-cycle` skips `import type` edges by design, but a type-only cycle still ties two modules
 * together (and becomes a runtime cycle the moment someone imports a value along it). This rule sees
 * every edge: static, `import type`, `export … from`, `import()` and `require()`.
 *
 * It reads each project file once per lint process with TypeScript's import scanner
 * (`ts.preProcessFile`, no parsing or type checking), resolves only project-local specifiers
 * (relative and the `@/` alias; packages cannot take part in a cycle of ours) and finds strongly
 * connected components with Tarjan's algorithm. An import is reported when its target sits in the
 * same component as the importing file, with one concrete path that closes the cycle.
 */

const EXTENSIONS = [".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"];

/** One graph per (root, aliases): the lint process reads every file at most once. */
const graphs = new Map();

export function createImportGraph(root, aliases = { "@/": "" }) {
  const edges = new Map(); // file → resolved project files it imports
  const sccOf = new Map(); // file → component id
  const componentSize = new Map();
  let nextComponent = 0;

  function resolveSpecifier(specifier, fromFile) {
    let base;
    if (specifier.startsWith("./") || specifier.startsWith("../") || specifier === "." || specifier === "..") {
      base = resolve(dirname(fromFile), specifier);
    } else {
      const alias = Object.keys(aliases).find((prefix) => specifier.startsWith(prefix));
      if (alias === undefined) return undefined;
      base = resolve(root, aliases[alias], specifier.slice(alias.length));
    }
    const candidates = [base];
    // ESM-style specifiers name the emitted file: "./x.js" is "./x.ts" in source.
    const emitted = base.match(/\.(m|c)?jsx?$/);
    if (emitted) candidates.push(base.slice(0, -emitted[0].length));
    for (const candidate of candidates) {
      if (isFile(candidate) && EXTENSIONS.some((ext) => candidate.endsWith(ext))) return candidate;
      for (const ext of EXTENSIONS) if (isFile(candidate + ext)) return candidate + ext;
      for (const ext of EXTENSIONS) if (isFile(join(candidate, `index${ext}`))) return join(candidate, `index${ext}`);
    }
    return undefined;
  }

  function importsOf(file) {
    let targets = edges.get(file);
    if (targets) return targets;
    targets = [];
    edges.set(file, targets);
    let text;
    try {
      text = readFileSync(file, "utf8");
    } catch {
      return targets;
    }
    const { importedFiles } = ts.preProcessFile(text, true, true);
    for (const { fileName } of importedFiles) {
      const target = resolveSpecifier(fileName, file);
      if (target && !targets.includes(target)) targets.push(target);
    }
    return targets;
  }

  // Tarjan's algorithm, iterative so deep import chains cannot overflow the stack. Runs from each
  // file not seen yet; components found by earlier runs are final.
  function assignComponents(start) {
    if (sccOf.has(start)) return;
    const index = new Map();
    const low = new Map();
    const stack = [];
    const onStack = new Set();
    let counter = 0;
    const work = [{ file: start, next: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const targets = importsOf(frame.file);
      if (frame.next < targets.length) {
        const target = targets[frame.next++];
        if (sccOf.has(target)) continue;
        if (!index.has(target)) {
          index.set(target, counter);
          low.set(target, counter++);
          stack.push(target);
          onStack.add(target);
          work.push({ file: target, next: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.file, Math.min(low.get(frame.file), index.get(target)));
        }
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1].file;
        low.set(parent, Math.min(low.get(parent), low.get(frame.file)));
      }
      if (low.get(frame.file) === index.get(frame.file)) {
        const component = nextComponent++;
        let size = 0;
        let member;
        do {
          member = stack.pop();
          onStack.delete(member);
          sccOf.set(member, component);
          size++;
        } while (member !== frame.file);
        componentSize.set(component, size);
      }
    }
  }

  /** The import path `from → … → to` inside their shared component (breadth-first, shortest). */
  function pathWithin(from, to) {
    const component = sccOf.get(from);
    const previous = new Map([[from, null]]);
    const queue = [from];
    while (queue.length > 0) {
      const file = queue.shift();
      if (file === to) break;
      for (const target of importsOf(file)) {
        if (sccOf.get(target) !== component || previous.has(target)) continue;
        previous.set(target, file);
        queue.push(target);
      }
    }
    const path = [];
    for (let file = to; file !== null && file !== undefined; file = previous.get(file)) path.unshift(file);
    return path;
  }

  return {
    resolveSpecifier,
    /** For an import of `target` by `file`: the cycle it closes (`file → target → … → file`), or undefined. */
    cycleThrough(file, target) {
      assignComponents(file);
      assignComponents(target);
      if (target === file) return [file, file];
      const component = sccOf.get(file);
      if (component !== sccOf.get(target) || componentSize.get(component) < 2) return undefined;
      return [file, ...pathWithin(target, file)];
    },
  };
}

function isFile(path) {
  try {
    return existsSync(path) && statSync(path).isFile();
  } catch {
    return false;
  }
}

/** @type {import("eslint").Rule.RuleModule} */
export const noImportCycle = {
  meta: {
    type: "problem",
    docs: { description: "Forbid import cycles between project modules, type-only imports included." },
    schema: [
      {
        type: "object",
        properties: { aliases: { type: "object", additionalProperties: { type: "string" } } },
        additionalProperties: false,
      },
    ],
    messages: { cycle: "Import cycle: {{path}}" },
  },
  create(context) {
    const file = context.physicalFilename;
    if (!file || file === "<text>" || file === "<input>") return {};
    const root = context.cwd;
    const aliases = context.options[0]?.aliases ?? { "@/": "" };
    const key = `${root}\0${JSON.stringify(aliases)}`;
    let graph = graphs.get(key);
    if (!graph) {
      graph = createImportGraph(root, aliases);
      graphs.set(key, graph);
    }

    function check(node, source) {
      if (!source || typeof source.value !== "string") return;
      const target = graph.resolveSpecifier(source.value, file);
      if (!target) return;
      const cycle = graph.cycleThrough(file, target);
      if (!cycle) return;
      context.report({ node, messageId: "cycle", data: { path: cycle.map((f) => relative(root, f)).join(" → ") } });
    }

    return {
      ImportDeclaration: (node) => check(node, node.source),
      ExportNamedDeclaration: (node) => check(node, node.source),
      ExportAllDeclaration: (node) => check(node, node.source),
      ImportExpression: (node) => check(node, node.source),
      TSImportType: (node) => check(node, node.argument?.type === "Literal" ? node.argument : node.argument?.literal),
      TSExternalModuleReference: (node) => check(node, node.expression),
      CallExpression: (node) => {
        if (node.callee.type === "Identifier" && node.callee.name === "require") check(node, node.arguments[0]);
      },
    };
  },
};

const plugin = { meta: { name: "local" }, rules: { "no-import-cycle": noImportCycle } };

export default plugin;
