import { eq } from "drizzle-orm";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packageSigners } from "@/db/schema";
import { localSubjectForEmail } from "@/lib/auth/local-tokens";
import { resolvePrincipal, type Principal } from "@/lib/auth/principal";
import { recordAuthFailure } from "@/lib/auth/record-auth-failure";
import { signerProofRules } from "@/lib/signer-access/rules";
import { createSigning } from "@/lib/signings/create-signing";
import { serializeSigningDetail } from "@/lib/signings/serialize-signing-detail";
import { getSigningDetail } from "@/lib/signings/get-signing-detail";
import { SignerTimeline } from "@/app/(manager)/signings/_detail/signer-timeline";
import { createTestDb, type TestDb } from "../helpers/db";
import { loadDemoWorld, type DemoWorld } from "../helpers/fixtures";

// The manager's package page, per signer: the method (their own or the package's), whether it was
// passed, wrong codes, and the lock after five of them — read through getSigningDetail like /v1.

let testDb: TestDb;
let world: DemoWorld;
let manager: Principal;

beforeAll(async () => {
  testDb = await createTestDb();
  world = await loadDemoWorld(testDb.db);
  manager = await resolvePrincipal(testDb.db, localSubjectForEmail("manager@demo.local"));
});
afterAll(() => testDb.cleanup());

const text = (html: string) => html.replace(/<[^>]+>/g, "").replace(/&#x27;|&#39;/g, "'").replace(/\s+/g, " ");

describe("package page: proof of identity per signer", () => {
  it("shows the method, passed or not, wrong codes and the lock; never the code", async () => {
    const signing = await createSigning(testDb.db, {
      principal: manager,
      locationId: world.austin.id,
      title: "Proof page",
      signerAuthMethod: "access_code",
      signers: [
        { name: "Lee Locked", email: "lee.page@example.test", accessCode: "90210" },
        { name: "Pam Passed", email: "pam.page@example.test", authMethod: "email_code" },
        { name: "Tom Text", email: "tom.page@example.test", authMethod: "sms_code", phone: "+15125550142" },
      ],
    });
    const signers = await testDb.db.select().from(packageSigners).where(eq(packageSigners.packageId, signing.id));
    const lee = signers.find((s) => s.name === "Lee Locked")!;
    const pam = signers.find((s) => s.name === "Pam Passed")!;
    await testDb.db.update(packageSigners).set({ authFailures: 5 }).where(eq(packageSigners.id, lee.id));
    for (let i = 0; i < 5; i++) await recordAuthFailure(testDb.db, { rules: signerProofRules(lee.id) });
    await testDb.db
      .update(packageSigners)
      .set({ authFailures: 1, authPassedAt: new Date("2026-11-20T15:04:00Z"), authPassedMethod: "email_code" })
      .where(eq(packageSigners.id, pam.id));

    const detail = serializeSigningDetail(await getSigningDetail(testDb.db, { principal: manager, packageId: signing.id }));
    const html = renderToStaticMarkup(
      createElement(SignerTimeline, { signers: detail.signers, packageMethod: detail.signerAuthMethod, lastReminderAt: {}, now: new Date(), signingId: detail.id, canResend: false }),
    );
    const byName = (name: string) => text(html.slice(html.indexOf(`aria-label="${name}"`), html.indexOf("</li>", html.indexOf(`aria-label="${name}"`))));
    expect(byName("Lee Locked")).toMatch(/Proof of identity: Access code from the sender \(the package's method\) · code set/);
    expect(byName("Lee Locked")).toMatch(/Not passed yet · 5 wrong codes/);
    expect(byName("Lee Locked")).toMatch(/Locked after too many wrong codes until/);
    expect(byName("Pam Passed")).toMatch(/Proof of identity: Code sent by email(?! \(the package)/);
    expect(byName("Pam Passed")).toMatch(/Passed .*2026.* · 1 wrong code/);
    expect(byName("Pam Passed")).not.toMatch(/Locked/);
    expect(byName("Tom Text")).toMatch(/Code sent by text message · \+15125550142/);
    expect(byName("Tom Text")).toMatch(/no wrong codes/);
    expect(html).not.toContain("90210");
  });
});
