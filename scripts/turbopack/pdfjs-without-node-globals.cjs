/**
 * A Turbopack loader for `pdfjs-dist/build/pdf.mjs` in the browser bundle (next.config.ts).
 *
 * pdf.js names two Node.js globals on its Node.js-only paths: `Buffer` once (`isNodeJS && typeof
 * Buffer !== "undefined" && val instanceof Buffer`, refusing a Node Buffer as a document's data) and
 * `process` (to tell whether it runs in Node.js, and to load Node's modules there). In a browser those
 * paths never run, but a free `Buffer` or `process` makes the bundler add its polyfill for it to the
 * signer's page (about 6.5 kB and 1 kB gzipped). This loader replaces the Buffer test by `false` and
 * reads `process` as `globalThis.process`, which is the same object in Node.js, `undefined` in a
 * browser (so `isNodeJS` stays false there), and no free variable for the bundler to fill.
 *
 * When pdf.js changes the Buffer line the loader fails the build instead of quietly letting the
 * polyfill back in: look at the new line and update NODE_BUFFER_CHECK.
 */
const NODE_BUFFER_CHECK = 'isNodeJS && typeof Buffer !== "undefined" && val instanceof Buffer';
// `process` as a free variable: not a property (`.process`), not part of a longer name, not a method
// definition or call (`static process(`), not an object key (`process:`), not the "[object process]" text.
const FREE_PROCESS = /(?<![\w$.])process\b(?!\s*[(:\]])/g;

module.exports = function pdfjsWithoutNodeGlobals(source) {
  const at = source.indexOf(NODE_BUFFER_CHECK);
  if (at === -1 || source.indexOf(NODE_BUFFER_CHECK, at + 1) !== -1) {
    throw new Error(
      `pdfjs-without-node-globals: expected pdf.mjs to contain \`${NODE_BUFFER_CHECK}\` exactly once; pdf.js changed, update scripts/turbopack/pdfjs-without-node-globals.cjs`,
    );
  }
  const withoutBuffer = source.slice(0, at) + "false" + source.slice(at + NODE_BUFFER_CHECK.length);
  return withoutBuffer.replace(FREE_PROCESS, "globalThis.process");
};
