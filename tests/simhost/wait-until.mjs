// Preloaded into each instance of the simulated host (`node --import wait-until.mjs server.js`): the
// platform's `waitUntil`, as a Vercel-style host hands it to Next through the `@next/request-context`
// global (Next reads it in `getWaitUntil()`; `after()` passes its callbacks' promise to it). Each
// promise is reported on file descriptor 3, "+" when handed over and "-" when it settles, so that the
// host's proxy (tests/simhost/freezing-proxy.ts) keeps the instance running until its after() work is
// done and freezes it only then, as such a host does. Without the proxy's pipe (fd 3 not open), it
// reports nothing.
import { writeSync } from "node:fs";

function report(sign) {
  try {
    writeSync(3, sign);
  } catch {
    // Not run by the simulated host.
  }
}

const context = {
  waitUntil(promise) {
    report("+");
    Promise.resolve(promise).then(
      () => report("-"),
      () => report("-"),
    );
  },
};

globalThis[Symbol.for("@next/request-context")] = { get: () => context };
