import type { Locator, Page } from "@playwright/test";

/** The manager's view of a package (`/signings/<id>` for its managers), found by role and name. */
export class ManagerSigningPage {
  readonly title: Locator;
  readonly statusSentence: Locator;
  readonly signers: Locator;
  readonly auditVerdict: Locator;
  readonly auditTable: Locator;
  readonly vaultDeliveries: Locator;
  readonly documents: Locator;
  readonly cancelButton: Locator;
  readonly cancelDialog: Locator;
  readonly cancelReason: Locator;
  readonly confirmCancel: Locator;
  readonly actions: Locator;

  constructor(readonly page: Page) {
    this.title = page.getByRole("heading", { level: 1 });
    this.statusSentence = page.getByTestId("status-sentence");
    this.signers = page.getByRole("list", { name: "Signers in signing order" });
    this.auditVerdict = page.getByTestId("audit-verdict");
    this.auditTable = page.getByRole("table").filter({ has: page.getByRole("columnheader", { name: "Browser" }) });
    this.vaultDeliveries = page.getByRole("region", { name: "Vault deliveries, one row per signed document" }).getByRole("table");
    this.documents = page.getByRole("region", { name: "Documents" }).first();
    this.actions = page.getByRole("region", { name: "Actions" });
    this.cancelButton = page.getByRole("button", { name: "Cancel package…" });
    this.cancelDialog = page.getByRole("dialog", { name: "Cancel this package?" });
    this.cancelReason = this.cancelDialog.getByLabel("Reason (optional, sent to the signers)");
    this.confirmCancel = this.cancelDialog.getByRole("button", { name: "Cancel the package" });
  }

  async goto(id: string, query = ""): Promise<this> {
    await this.page.goto(`/signings/${id}${query}`);
    await this.statusSentence.waitFor();
    return this;
  }

  signer(name: string): Locator {
    return this.signers.getByRole("listitem", { name, exact: true });
  }

  remindButton(names: string): Locator {
    return this.page.getByRole("button", { name: `Remind ${names}` });
  }

  /** The live region an action's outcome is announced in. */
  message(text: string | RegExp): Locator {
    return this.actions.getByRole("status").filter({ hasText: text });
  }
}
