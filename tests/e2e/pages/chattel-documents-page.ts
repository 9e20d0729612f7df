import type { Locator, Page } from "@playwright/test";

/** The manager's chattel documents: the list (/documents), the create form and a document's page. */
export class ChattelDocumentsPage {
  constructor(readonly page: Page) {}

  async gotoList(query = ""): Promise<this> {
    await this.page.goto(`/documents${query}`);
    await this.page.getByRole("heading", { level: 1, name: "Documents" }).waitFor();
    return this;
  }

  row(title: string): Locator {
    return this.page.getByRole("row").filter({ has: this.page.getByRole("rowheader", { name: title, exact: true }) });
  }

  async search(text: string): Promise<void> {
    await this.page.getByRole("searchbox", { name: "Search" }).fill(text);
    await this.page.getByRole("button", { name: "Search", exact: true }).click();
    await this.page.waitForURL(/[?&]q=/);
  }

  async gotoNew(): Promise<void> {
    await this.page.goto("/documents/new");
    await this.page.getByRole("heading", { level: 1, name: "New document" }).waitFor();
  }

  async fillNew(fields: { title?: string; borrowerName?: string; borrowerEmail?: string; dealerName?: string; dealerEmail?: string; serial?: string }): Promise<void> {
    const p = this.page;
    if (fields.title !== undefined) await p.getByLabel("Title").fill(fields.title);
    await p.getByLabel("Type").selectOption({ label: "Certificate of title" });
    if (fields.borrowerName) await p.getByLabel("Borrower name").fill(fields.borrowerName);
    if (fields.borrowerEmail) await p.getByLabel("Borrower email").fill(fields.borrowerEmail);
    if (fields.dealerName) await p.getByLabel("Dealer contact 1 name").fill(fields.dealerName);
    if (fields.dealerEmail) await p.getByLabel("Dealer contact 1 email").fill(fields.dealerEmail);
    if (fields.serial) await p.getByLabel("Serial or VIN").fill(fields.serial);
  }

  async submitNew(): Promise<void> {
    await this.page.getByRole("button", { name: "Create document" }).click();
  }

  // On a document's page.

  heading(title: string): Locator {
    return this.page.getByRole("heading", { level: 1, name: title });
  }

  get filesList(): Locator {
    return this.page.getByRole("list", { name: "Files of this document" });
  }

  async upload(file: { name: string; mimeType: string; buffer: Buffer }): Promise<void> {
    await this.page.getByLabel("Add a file").setInputFiles(file);
    await this.page.getByRole("button", { name: "Upload", exact: true }).click();
  }

  get comments(): Locator {
    return this.page.getByRole("region", { name: "Comments" });
  }

  comment(author: string, text: string, kind: "Comment" | "Reply" = "Comment"): Locator {
    return this.comments.getByRole("article", { name: `${kind} by ${author}` }).filter({ hasText: text });
  }

  get outreach(): Locator {
    return this.page.getByRole("region", { name: "Outreach" });
  }

  get outreachPreview(): Locator {
    return this.outreach.getByTestId("outreach-preview");
  }

  historyItem(subject: string): Locator {
    return this.outreach.getByRole("article", { name: `Message: ${subject}` });
  }
}
