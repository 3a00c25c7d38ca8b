import type { z } from "zod";

/** A refusal with the platform's error body (design: errors as { api_message, user_message }). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly apiMessage: string,
    readonly userMessage: string = apiMessage,
  ) {
    super(apiMessage);
    this.name = "ApiError";
  }
}

export type ErrorBody = { api_message: string; user_message: string };

export function errorBody(error: ApiError): ErrorBody {
  return { api_message: error.apiMessage, user_message: error.userMessage };
}

export const MESSAGES = {
  noSession: "This feature is not available without a valid session",
  noEntityAccess: "Permission Error: You do not have access to this entity",
  adviserOnly: "Permission Error: This feature is only available to advisers",
  clientOnly: "Permission Error: This feature is only available to clients",
  noClientInContext: "I am not a clientUser and no client in context",
  badCredentials: "Either your username or your password is incorrect.",
  disabled: "Account has been disabled.",
} as const;

export const forbidden = (message: string = MESSAGES.noEntityAccess) => new ApiError(403, message);
export const notFound = (what: string) => new ApiError(404, `${what} not found`);

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((i) => (i.path.length ? `${i.path.join(".")}: ${i.message}` : i.message))
    .join("; ");
}

/** Validates a query or body; a mismatch is a 400 naming the fields. */
export function validate<S extends z.ZodTypeAny>(schema: S, input: unknown, what: "query" | "body" | "path"): z.output<S> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    throw new ApiError(400, `Invalid ${what}: ${describeIssues(parsed.error)}`, "One or more of the arguments are missing or incorrect.");
  }
  return parsed.data as z.output<S>;
}
