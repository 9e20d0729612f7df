// Only Clerk's provider, for the on-demand import in clerk-browser-provider.tsx (see clerk-components.ts for why).
export { ClerkProvider } from "@clerk/nextjs";
