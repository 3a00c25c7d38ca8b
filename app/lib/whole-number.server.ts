import { z } from "zod/v4";

/**
 * A whole number in a platform answer, as zod 3's `.int()` took it: zod 4's `.int()` also refuses
 * one beyond ±(2^53 − 1), and an answer that parsed before would fail (docs/decisions/159). Where
 * bounds keep the number within that range anyway, `.int()` says the same.
 */
export const WholeNumber = z.number().refine(Number.isInteger, "Expected integer");
