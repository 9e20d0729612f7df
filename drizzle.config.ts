import { defineConfig } from "drizzle-kit";

// Generation only compares the schema with earlier snapshots; it needs no database connection.
export default defineConfig({
  dialect: "postgresql",
  schema: "./db/schema/index.ts",
  out: "./db/migrations",
  casing: "snake_case",
});
