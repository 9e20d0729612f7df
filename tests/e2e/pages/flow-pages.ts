import type { Locator, Page } from "@playwright/test";

/** /flows and /flows/<id>: the flow form and its ordered steps. */
export class FlowPages {
  readonly message: Locator;
  readonly steps: Locator;

  constructor(readonly page: Page) {
    this.message = page.getByRole("status").filter({ hasText: /\S/ });
    this.steps = page.getByRole("list", { name: "Steps" }).getByRole("listitem");
  }

  async gotoList(): Promise<this> {
    await this.page.goto("/flows");
    await this.page.getByRole("heading", { level: 1, name: "Flows" }).waitFor();
    return this;
  }

  /** The step names as listed, in order (without their position numbers). */
  async stepNames(): Promise<string[]> {
    return this.steps.evaluateAll((items) => items.map((li) => (li.querySelector("input[name=steps]") as HTMLInputElement).value));
  }

  async addStep(label: string): Promise<void> {
    await this.page.getByLabel("Step to add").selectOption({ label });
    await this.page.getByRole("button", { name: "Add step" }).click();
  }

  async move(label: string, direction: "up" | "down"): Promise<void> {
    await this.page.getByRole("button", { name: `Move ${direction} ${label}`, exact: true }).click();
  }

  async remove(label: string): Promise<void> {
    await this.page.getByRole("button", { name: `Remove ${label}`, exact: true }).click();
  }
}
