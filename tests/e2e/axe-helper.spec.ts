import { expect, expectNoAxeViolations, test } from "./support/fixtures";

// The axe helper itself: a check that cannot fail would prove nothing on the product's pages.
test.describe("expectNoAxeViolations", { tag: "@desktop" }, () => {
  const URL = "https://axe-harness.test/";
  const page = (body: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>axe harness</title></head><body><main>${body}</main></body></html>`;

  test("fails on serious or critical violations and names the rule", async ({ page: browserPage }) => {
    // An unnamed button (critical) and an unlabelled input (critical).
    await browserPage.route(URL, (route) => route.fulfill({ contentType: "text/html", body: page('<h1>Form</h1><button></button><input type="text">') }));
    await browserPage.goto(URL);
    const failure = await expectNoAxeViolations(browserPage).then(
      () => undefined,
      (error: unknown) => String(error instanceof Error ? error.message : error),
    );
    expect(failure).toBeDefined();
    expect(failure).toContain("button-name");
    expect(failure).toContain("label");
  });

  test("passes a page with no serious or critical violation", async ({ page: browserPage }) => {
    await browserPage.route(URL, (route) =>
      route.fulfill({ contentType: "text/html", body: page('<h1>Form</h1><label for="n">Name</label><input id="n" type="text"><button>Save</button>') }),
    );
    await browserPage.goto(URL);
    await expectNoAxeViolations(browserPage);
  });
});
