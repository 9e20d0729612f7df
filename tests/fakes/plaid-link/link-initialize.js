/*
 * A fake of Plaid Link's browser script (https://cdn.plaid.com/link/v2/stable/link-initialize.js) for
 * the browser tests: Playwright routes that address to this file (tests/e2e/support/plaid-link.ts).
 *
 * It defines what `react-plaid-link` and plain callers use of the real script:
 *   window.Plaid.create({ token, onSuccess, onExit, onEvent, onLoad }) -> { open, exit, destroy, submit }
 * `onLoad` fires once, asynchronously, after create (react-plaid-link waits for it before `ready`).
 * `open()` draws no UI: it asks the test process, through the binding `window.__fakePlaidLinkOpen`
 * (installed with `page.exposeFunction`, so no network request and no CSP exception is needed), what
 * the person does. The test process checks the link token against the fake Plaid server
 * (tests/fakes/plaid/server.ts, `/link/token/get`) and, for a success, has it issue a sandbox
 * `public_token` (`/sandbox/public_token/create`) that our `/api/bank/exchange` can exchange.
 * Then, as the real Link does: events OPEN, SELECT_INSTITUTION, HANDOFF and `onSuccess(public_token,
 * metadata)`; or, on an exit or an error (an expired or unknown link token), EXIT and
 * `onExit(error | null, metadata)`.
 */
(function () {
  "use strict";

  function randomId(prefix) {
    return prefix + Math.random().toString(36).slice(2) + Date.now().toString(36);
  }

  function noop() {}

  function create(config) {
    if (!config || typeof config.token !== "string" || config.token === "") {
      throw new Error("Plaid.create: a link `token` is required");
    }
    var onSuccess = typeof config.onSuccess === "function" ? config.onSuccess : noop;
    var onExit = typeof config.onExit === "function" ? config.onExit : noop;
    var onEvent = typeof config.onEvent === "function" ? config.onEvent : noop;
    var onLoad = typeof config.onLoad === "function" ? config.onLoad : noop;
    var linkSessionId = randomId("fake-link-session-");
    var state = { open: false, destroyed: false, attempt: 0 };

    setTimeout(function () {
      if (!state.destroyed) onLoad();
    }, 0);

    function emit(eventName, metadata) {
      var base = {
        error_code: null,
        error_message: null,
        error_type: null,
        exit_status: null,
        institution_id: null,
        institution_name: null,
        institution_search_query: null,
        link_session_id: linkSessionId,
        mfa_type: null,
        request_id: randomId("fake-request-"),
        timestamp: new Date().toISOString(),
        view_name: null,
      };
      onEvent(eventName, Object.assign(base, metadata || {}));
    }

    function finishWithExit(error, metadata) {
      state.open = false;
      var exitMetadata = Object.assign(
        { institution: null, status: null, link_session_id: linkSessionId, request_id: randomId("fake-request-") },
        metadata || {},
      );
      if (error) {
        emit("ERROR", { error_code: error.error_code, error_message: error.error_message, error_type: error.error_type, view_name: "ERROR" });
      }
      emit("EXIT", {
        exit_status: exitMetadata.status,
        institution_id: exitMetadata.institution ? exitMetadata.institution.institution_id : null,
        institution_name: exitMetadata.institution ? exitMetadata.institution.name : null,
      });
      onExit(error || null, exitMetadata);
    }

    function open() {
      if (state.destroyed) throw new Error("Plaid Link: open() after destroy()");
      if (state.open) return;
      state.open = true;
      var attempt = ++state.attempt;
      emit("OPEN", { view_name: "CONSENT" });
      var bridge = window.__fakePlaidLinkOpen;
      if (typeof bridge !== "function") {
        finishWithExit({
          error_type: "INTERNAL_SERVER_ERROR",
          error_code: "INTERNAL_SERVER_ERROR",
          error_message: "the fake Plaid Link is not connected to a test (window.__fakePlaidLinkOpen is missing)",
          display_message: null,
        });
        return;
      }
      Promise.resolve(bridge({ token: config.token, linkSessionId: linkSessionId })).then(
        function (outcome) {
          // Exited, destroyed or reopened while the test process answered: that answer is stale.
          if (!state.open || state.destroyed || attempt !== state.attempt) return;
          if (outcome && outcome.kind === "success") {
            var institution = outcome.metadata.institution;
            emit("SELECT_INSTITUTION", { institution_id: institution.institution_id, institution_name: institution.name, view_name: "SELECT_INSTITUTION" });
            emit("HANDOFF", { institution_id: institution.institution_id, institution_name: institution.name });
            state.open = false;
            onSuccess(outcome.publicToken, outcome.metadata);
            return;
          }
          finishWithExit(outcome ? outcome.error : null, outcome ? outcome.metadata : null);
        },
        function (reason) {
          if (!state.open || state.destroyed) return;
          finishWithExit({
            error_type: "INTERNAL_SERVER_ERROR",
            error_code: "INTERNAL_SERVER_ERROR",
            error_message: String(reason && reason.message ? reason.message : reason),
            display_message: null,
          });
        },
      );
    }

    return {
      open: open,
      // Like Link: closing an open Link reports onExit without an error; a closed one ignores it.
      exit: function () {
        if (!state.open || state.destroyed) return;
        finishWithExit(null, { status: null });
      },
      destroy: function () {
        state.destroyed = true;
        state.open = false;
      },
      submit: noop,
    };
  }

  window.Plaid = { create: create, version: "fake", isFake: true };
})();
