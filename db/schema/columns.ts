import { customType, timestamp, uuid } from "drizzle-orm/pg-core";
import { uuidv7 } from "../uuidv7";

/** Primary key for string-identified aggregates: a UUIDv7 generated in the application. */
export const idColumn = () => uuid("id").primaryKey().$defaultFn(() => uuidv7());

export const createdAt = () => timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow();

export const updatedAt = () =>
  timestamp("updated_at", { withTimezone: true, mode: "date" })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date());

export const timestampTz = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

/** Raw file bytes (PDFs, images) kept in the database when no object storage is configured. */
export const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (value) => (value instanceof Uint8Array ? value : new Uint8Array(value as ArrayBuffer)),
});
