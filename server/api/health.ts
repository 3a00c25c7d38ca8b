import { sql } from "drizzle-orm";
import { json, open, type Route } from "./router";

// spec 000 §4 maintenance: BAD puts the portal into maintenance
export const healthRoutes: Route[] = [
  open("GET", "/xplan/health", (_request, { db }) => {
    try {
      db.get(sql`select 1`);
      return json({ status: "GOOD" });
    } catch {
      return json({ status: "BAD" });
    }
  }),
];
