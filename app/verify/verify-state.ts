import type { SealVerification } from "@/lib/seals/verify-sealed-pdf";

type Serialized = Exclude<SealVerification, { outcome: "sealed" }> | (Extract<SealVerification, { outcome: "sealed" }> extends infer S ? Omit<S, "sealedAt" | "trustedTime"> & { sealedAt: string; trustedTime: string | null } : never);

export type VerifyState =
  | { status: "idle" }
  | { status: "error"; message: string }
  | { status: "ok"; fileName: string; result: Serialized };
