import { relative, resolve, dirname, sep } from "node:path";

/**
 * A module that starts with "use client" is shipped to the browser together with everything it
 * imports. The database layer (`db/`, `@/db`) and drizzle-orm have no business there: importing an
 * enum from `db/schema` pulls `drizzle-orm/pg-core` into the bundle. Value lists the browser needs
 * live in plain modules under `db/values/` (no imports at all), which `db/schema` builds its columns
 * and enums from and the browser may import.
 *
 * Every import form counts, `import type` included (the next edit turns it into a value import):
 * static imports, `export … from`, `import()` and `require()`. Relative specifiers that lead into
 * the project's `db/` folder count like `@/db`.
 */

const PACKAGE = /^drizzle-orm(\/|$)/;
const ALIAS = /^@\/db(\/|$)/;
const VALUES_ALIAS = /^@\/db\/values\//;

function isClientModule(program) {
  for (const statement of program.body) {
    if (statement.type !== "ExpressionStatement" || typeof statement.directive !== "string") return false;
    if (statement.directive === "use client") return true;
  }
  return false;
}

export const noDbInClient = {
  meta: {
    type: "problem",
    docs: { description: 'Forbid database imports (@/db, db/, drizzle-orm) in "use client" modules.' },
    schema: [],
    messages: {
      forbidden:
        '"use client" module imports "{{specifier}}": database code must not reach the browser. Import the values from a plain lib/ module instead (e.g. lib/<area>/<name>-values.ts).',
    },
  },
  create(context) {
    const root = context.cwd;
    const file = context.filename;

    function forbidden(specifier) {
      if (PACKAGE.test(specifier)) return true;
      if (ALIAS.test(specifier)) return !VALUES_ALIAS.test(specifier);
      if (!specifier.startsWith(".")) return false;
      const target = relative(root, resolve(dirname(file), specifier));
      return (target === "db" || target.startsWith(`db${sep}`)) && !target.startsWith(`db${sep}values${sep}`);
    }

    function check(node, source) {
      if (!source || typeof source.value !== "string" || !forbidden(source.value)) return;
      context.report({ node, messageId: "forbidden", data: { specifier: source.value } });
    }

    let client = false;
    return {
      Program: (node) => {
        client = isClientModule(node);
      },
      ImportDeclaration: (node) => client && check(node, node.source),
      ExportNamedDeclaration: (node) => client && check(node, node.source),
      ExportAllDeclaration: (node) => client && check(node, node.source),
      ImportExpression: (node) => client && check(node, node.source),
      CallExpression: (node) => {
        if (client && node.callee.type === "Identifier" && node.callee.name === "require") check(node, node.arguments[0]);
      },
    };
  },
};

const plugin = { meta: { name: "local-client" }, rules: { "no-db-in-client": noDbInClient } };

export default plugin;
