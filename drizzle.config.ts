import { defineConfig } from "drizzle-kit";

// `npm run db:generate`: SQL migrations from server/db/schema.ts, applied by the platform at start.
export default defineConfig({
  dialect: "sqlite",
  schema: "./server/db/schema.ts",
  out: "./server/db/migrations",
});
