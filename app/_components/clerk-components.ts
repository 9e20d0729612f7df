// Clerk's UI components the auth pages render, named here so the bundler keeps just these (and what
// they use) from `@clerk/nextjs`'s index when it is imported on demand: `import("@clerk/nextjs")`
// itself keeps the whole namespace (every Clerk component and hook). The provider has a module of its
// own (clerk-provider-export.ts), so pages other than sign-in/sign-out do not load these.
export { SignIn, SignOutButton, SignUp } from "@clerk/nextjs";
