import type { Locator, Page } from "@playwright/test";

/** The organization admin's workspace: members, settings and billing tabs. */
export class WorkspacePage {
  readonly tabs: Locator;
  readonly inviteForm: Locator;
  readonly membersTable: Locator;

  constructor(readonly page: Page) {
    this.tabs = page.getByRole("navigation", { name: "Workspace" });
    this.inviteForm = page.getByRole("form", { name: "Invite a member" });
    this.membersTable = page.getByRole("table", { name: /Members of/ });
  }

  async gotoMembers(): Promise<this> {
    await this.page.goto("/workspace/members");
    await this.page.getByRole("heading", { level: 2, name: "Members and invitations" }).waitFor();
    return this;
  }

  memberRow(text: string): Locator {
    return this.membersTable.getByRole("row").filter({ hasText: text });
  }

  async invite(member: { email: string; name: string; role: string; where?: string }): Promise<void> {
    await this.inviteForm.getByLabel("Email").fill(member.email);
    await this.inviteForm.getByLabel("Name (optional)").fill(member.name);
    await this.inviteForm.getByLabel("Role").selectOption({ label: member.role });
    if (member.where) await this.inviteForm.getByLabel("Where").selectOption({ label: member.where });
    await this.inviteForm.getByRole("button", { name: "Send invitation" }).click();
  }

  async changeRole(name: string, role: string): Promise<void> {
    const row = this.memberRow(name);
    await row.getByLabel(`Role of ${name}`, { exact: true }).selectOption({ label: role });
    await row.getByRole("button", { name: `Save role of ${name}` }).click();
  }

  /** Opens the member's Remove dialog and confirms; returns the dialog (still open when the removal was refused). */
  async remove(name: string): Promise<Locator> {
    await this.memberRow(name).getByRole("button", { name: `Remove ${name}` }).click();
    const dialog = this.page.getByRole("dialog", { name: `Remove ${name}?` });
    await dialog.getByRole("button", { name: "Remove member" }).click();
    return dialog;
  }
}
