import type { Principal } from "@/lib/auth/principal";

export type ApiEnv = {
  Variables: {
    principal: Principal;
  };
};
