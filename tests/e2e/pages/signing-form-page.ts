import type { Locator, Page } from "@playwright/test";

type FilePayload = { name: string; mimeType: string; buffer: Buffer };

/** The manager's package form: /signings/new and /signings/<id>/edit. */
export class SigningFormPage {
  readonly status: Locator;
  readonly filesInput: Locator;
  readonly dropZone: Locator;
  readonly sendDialog: Locator;

  constructor(readonly page: Page) {
    this.status = page.locator("#signing-form-message");
    this.filesInput = page.getByLabel("Add PDFs");
    this.dropZone = page.getByTestId("drop-zone");
    this.sendDialog = page.getByRole("dialog", { name: "Send this package?" });
  }

  async gotoNew(): Promise<this> {
    await this.page.goto("/signings/new");
    await this.page.getByRole("heading", { level: 1, name: "New package" }).waitFor();
    return this;
  }

  async chooseLocation(name: string): Promise<void> {
    await this.page.getByLabel("Location").selectOption({ label: name });
  }

  title(): Locator {
    return this.page.getByLabel("Title");
  }

  signerField(n: number, field: "Name" | "Email" | "Role" | "Order" | "Attachments to ask for (optional)"): Locator {
    return this.page.getByLabel(`Signer ${n} ${field}`, { exact: true });
  }

  async fillSigner(n: number, signer: { name: string; email: string; order?: number; role?: "Signer" | "Co-signer" }): Promise<void> {
    await this.signerField(n, "Name").fill(signer.name);
    await this.signerField(n, "Email").fill(signer.email);
    if (signer.role) await this.signerField(n, "Role").selectOption({ label: signer.role });
    if (signer.order !== undefined) await this.signerField(n, "Order").fill(String(signer.order));
  }

  async addSigner(): Promise<void> {
    await this.page.getByRole("button", { name: "Add signer" }).click();
  }

  /** The row of a picked file in "PDFs to attach". */
  pickedFile(name: string): Locator {
    return this.page.getByRole("list", { name: "PDFs to attach" }).getByRole("listitem").filter({ hasText: name });
  }

  attachedDocuments(): Locator {
    return this.page.getByRole("list", { name: "Attached documents" }).getByRole("listitem");
  }

  async pick(file: FilePayload): Promise<void> {
    await this.filesInput.setInputFiles(file);
  }

  /** Drops a file on the drop zone the way a browser does: a drop event carrying a DataTransfer. */
  async drop(file: FilePayload): Promise<void> {
    const dataTransfer = await this.page.evaluateHandle(
      ({ name, mimeType, bytes }) => {
        const transfer = new DataTransfer();
        transfer.items.add(new File([new Uint8Array(bytes)], name, { type: mimeType }));
        return transfer;
      },
      { name: file.name, mimeType: file.mimeType, bytes: [...file.buffer] },
    );
    await this.dropZone.dispatchEvent("dragover", { dataTransfer });
    await this.dropZone.dispatchEvent("drop", { dataTransfer });
  }

  /** Saves and waits for the server action's answer (a redirect to the draft, or the form's errors). */
  async saveDraft(): Promise<void> {
    // With JavaScript a fetch carrying `Next-Action`, without it the browser's own form post: a POST either way.
    const answered = this.page.waitForResponse((response) => response.request().method() === "POST");
    await this.page.getByRole("button", { name: "Save draft" }).click();
    await answered;
    await this.page.getByRole("button", { name: "Save draft" }).waitFor();
  }

  async openSendCheck(): Promise<void> {
    await this.page.getByRole("button", { name: "Send…" }).click();
    await this.sendDialog.waitFor();
  }

  async sendNow(): Promise<void> {
    await this.sendDialog.getByRole("button", { name: "Send now" }).click();
  }
}

/** /signings/bulk. */
export class BulkSendPage {
  readonly status: Locator;
  readonly report: Locator;

  constructor(readonly page: Page) {
    this.status = page.getByRole("status").filter({ hasText: /./ }).first();
    this.report = page.getByTestId("bulk-report");
  }

  async goto(): Promise<this> {
    await this.page.goto("/signings/bulk");
    await this.page.getByRole("heading", { level: 1, name: "Bulk send from a template" }).waitFor();
    return this;
  }

  async fill(template: string, csv: string): Promise<void> {
    await this.page.getByLabel("Template").selectOption({ label: template });
    await this.page.getByLabel("Signers (CSV)").fill(csv);
  }

  async check(): Promise<void> {
    await this.page.getByRole("button", { name: "Check rows" }).click();
  }

  async send(): Promise<void> {
    await this.page.getByRole("button", { name: "Create and send" }).click();
  }

  row(line: number): Locator {
    return this.report.getByRole("row").filter({ has: this.page.getByRole("rowheader", { name: String(line), exact: true }) });
  }
}
