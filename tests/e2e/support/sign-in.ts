import type { Page } from "@playwright/test";
import { DEMO_PASSWORD } from "@/lib/seed/seed-demo";
import { HomePage } from "../pages/home-page";
import { SignInPage } from "../pages/sign-in-page";

/**
 * Signs in through the sign-in form (the demo password unless given) and waits for the page it lands
 * on: home, or `landsOn` (e.g. the `callbackUrl` a protected page sent the visitor with).
 */
export async function signInAs(page: Page, email: string, options: { password?: string; landsOn?: string } = {}): Promise<HomePage> {
  const signIn = await new SignInPage(page).goto(options.landsOn && options.landsOn !== "/" ? options.landsOn : undefined);
  await signIn.signIn(email, options.password ?? DEMO_PASSWORD, options.landsOn ?? "/");
  return new HomePage(page);
}
