import { expect, expectNoAxeViolations, signInAs, test } from "./support/fixtures";

test.describe("the organization admin's webhooks", { tag: "@desktop" }, () => {
  test("adds an endpoint and sees its secret once, sends a test event, finds it in the delivery log and replays it", async ({ page }) => {
    await signInAs(page, "owner@demo.local");
    await page.goto("/workspace/webhooks");
    await expect(page.getByRole("navigation", { name: "Workspace" }).getByRole("link", { name: "Webhooks" })).toHaveAttribute("aria-current", "page");
    const form = page.getByRole("form", { name: "Add an endpoint" });

    // A private address is refused with the reason, and what was typed stays.
    await form.getByLabel("URL").fill("https://10.0.0.7/hooks");
    await form.getByRole("button", { name: "Add endpoint" }).click();
    await expect(form.getByRole("status")).toContainText("private address");
    await expect(form.getByLabel("URL")).toHaveValue("https://10.0.0.7/hooks");

    await form.getByLabel("URL").fill("https://los.example.com/hooks");
    await form.getByLabel("Description (optional)").fill("Loan system");
    await form.getByRole("button", { name: "Add endpoint" }).click();
    await expect(form.getByRole("status")).toContainText("Endpoint added");
    const secret = await page.getByTestId("signing-secret").inputValue();
    expect(secret).toMatch(/^whsec_/);
    await expectNoAxeViolations(page);

    // Shown once: a reload no longer has it.
    await page.reload();
    await expect(page.getByTestId("signing-secret")).toHaveCount(0);
    expect(await page.content()).not.toContain(secret);

    const endpoint = page.getByTestId("webhook-endpoint").filter({ hasText: "Loan system" });
    await endpoint.getByRole("button", { name: "Send test event to Loan system" }).click();
    await expect(endpoint.getByRole("status").filter({ hasText: "Test event sent" })).toBeVisible();
    await endpoint.getByRole("link", { name: "Delivery log of Loan system" }).click();
    const delivery = page.getByTestId("webhook-delivery").filter({ hasText: "webhook.test" });
    await expect(delivery).toHaveCount(1);
    await delivery.getByRole("button", { name: /^Replay webhook\.test/ }).click();
    await expect(delivery.getByRole("status")).toHaveText("Event queued again.");
    await page.reload();
    await expect(page.getByTestId("webhook-delivery").filter({ hasText: "webhook.test" })).toHaveCount(2);

    // Pause, then delete.
    await endpoint.getByRole("button", { name: "Pause Loan system" }).click();
    await expect(page.getByTestId("webhook-endpoint").filter({ hasText: "Loan system" })).toContainText("paused");
    await page.getByTestId("webhook-endpoint").filter({ hasText: "Loan system" }).getByRole("button", { name: "Delete Loan system" }).click();
    await expect(page.getByTestId("webhook-endpoint").filter({ hasText: "Loan system" })).toHaveCount(0);
  });
});
