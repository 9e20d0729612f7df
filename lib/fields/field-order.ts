import { asc, desc } from "drizzle-orm";
import { documentFields } from "@/db/schema";

/** Reading order of fields: page by page, top to bottom (user-space y grows upwards), left to right. */
export const FIELD_ORDER = [asc(documentFields.page), desc(documentFields.y), asc(documentFields.x), asc(documentFields.id)] as const;
