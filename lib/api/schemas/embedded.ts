import { z } from "@hono/zod-openapi";
import { MAX_FRAMING_ORIGINS } from "@/lib/embedded/framing-origins";
import { IsoDateTime, SafeString } from "./common";

export const EmbeddedUrlSchema = z
  .object({
    url: z.string().openapi({ example: "https://sign.example.com/embed/3q2-7wEvsYq0zT9x2mGkQ1hJcP8bVnRtYw5uLsDfA0e" }),
    expiresAt: IsoDateTime,
  })
  .openapi("EmbeddedSigningUrl", {
    description:
      "A URL to put in an iframe on one of the organization's allowed origins. It opens once, within five minutes, a signing session for that " +
      "signer of that package; the frame tells its parent what happens with postMessage (docs/embedded-signing.md). Never send it by email.",
  });

const Origin = SafeString.max(200).openapi({ example: "https://portal.lender.example" });

export const EmbedOriginsSchema = z
  .object({ origins: z.array(Origin) })
  .openapi("EmbedOrigins", {
    description:
      "The origins allowed to frame embedded signing pages: scheme://host[:port] with no path and no wildcard; https (http only for " +
      "127.0.0.1 or localhost outside production). An empty list stops all framing.",
  });

export const ReplaceEmbedOriginsSchema = z
  .object({ origins: z.array(Origin).max(MAX_FRAMING_ORIGINS) })
  .strict()
  .openapi("ReplaceEmbedOrigins");
