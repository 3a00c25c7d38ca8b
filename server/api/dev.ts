import { desc, eq, or, sql } from "drizzle-orm";
import { z } from "zod";
import { outbox } from "../db/schema";
import { wireDateTime } from "../lib/wire";
import { validate } from "./http";
import { json, open, type Route } from "./router";

const OutboxQuery = z.object({ to: z.string().trim().max(320).optional() });

// design: what the platform "sends" is readable here outside production (the app leaves it out there)
export const devRoutes: Route[] = [
  open("GET", "/dev/outbox", (request, { db }) => {
    const { to } = validate(OutboxQuery, request.query, "query");
    const rows = db
      .select()
      .from(outbox)
      .where(to ? or(eq(outbox.to, to), sql`lower(${outbox.username}) = ${to.toLowerCase()}`) : undefined)
      .orderBy(desc(outbox.createdAt), desc(outbox.id))
      .all();
    return json(
      rows.map((r) => ({
        id: r.id,
        to: r.to,
        channel: r.channel,
        subject: r.subject,
        body: r.body,
        code: r.code,
        created_at: wireDateTime(r.createdAt),
      })),
    );
  }),
];
