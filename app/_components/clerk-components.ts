// The only Clerk React components the app renders, named here so the bundler keeps just these (and
// what they use) from `@clerk/nextjs`'s index when it is imported on demand: `import("@clerk/nextjs")`
// itself would keep the whole namespace (every Clerk component and hook, ≈ 20 kB more gzipped).
export { ClerkProvider, SignIn, SignOutButton, SignUp } from "@clerk/nextjs";
