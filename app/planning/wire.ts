import { z } from "zod/v4";
import { SITE_ACCESS_LEVELS, type SiteAccessLevel } from "~/lib/site-access";

// The platform's typed values (design: wire format), unwrapped at the boundary.
export const WireDate = z
  .object({ _type: z.literal("Date"), _val: z.string().regex(/^\d{4}-\d{2}-\d{2}$/) })
  .transform((v) => v._val);

export const WireDateTime = z.object({ _type: z.literal("DateTime"), _val: z.string() }).transform((v) => v._val);

export const WireMoney = z
  .object({ code: z.string().length(3), value: z.object({ _type: z.literal("BigDecimal"), _val: z.string() }) })
  .transform((v) => ({ currency: v.code, amount: Number(v.value._val) }));

/** spec 000 §3: client_access_level to the site access level. */
export const ClientAccessLevel = z
  .number()
  .int()
  .min(0)
  .max(3)
  .transform((n) => SITE_ACCESS_LEVELS[n] as SiteAccessLevel);

export function clientAccessLevelOf(level: SiteAccessLevel): number {
  return SITE_ACCESS_LEVELS.indexOf(level);
}

// Answers that several modules read. Every schema is made once, at import: zod 4 compiles an
// object's parser on its first use, which a schema made per call would pay on every call
// (docs/decisions/159).

/** session/capability: what the session may do. */
export const CapabilitiesAnswer = z.object({ capabilities: z.array(z.string()) });

/** An answer read for its status alone: any body. */
export const AnyAnswer = z.unknown();

/** A list's rows read only for their ids (an existence check). */
export const IdRows = z.array(z.object({ id: z.number() }));
