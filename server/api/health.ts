import { eq, sql } from "drizzle-orm";
import type { Db } from "../db/connection";
import { siteSettings } from "../db/schema";
import type { PlatformEnv } from "../env";
import { json, open, type Route } from "./router";

export const MAINTENANCE_SETTING = "maintenanceMode";

/**
 * spec 000 §4 maintenance: on when the operator started the platform with PLATFORM_MAINTENANCE=on
 * or the site setting maintenanceMode is true (docs/decisions/043).
 */
export function inMaintenance(db: Db, env: PlatformEnv): boolean {
  if (env.maintenance) return true;
  const row = db.select().from(siteSettings).where(eq(siteSettings.key, MAINTENANCE_SETTING)).get();
  return row ? JSON.parse(row.valueJson) === true : false;
}

// spec 000 §4 maintenance: BAD puts the portal into maintenance
export const healthRoutes: Route[] = [
  open("GET", "/xplan/health", (_request, { db, env }) => {
    try {
      db.get(sql`select 1`);
      return json({ status: inMaintenance(db, env) ? "BAD" : "GOOD" });
    } catch {
      return json({ status: "BAD" });
    }
  }),
];
