import type { z } from "zod";

/** A refusal with the platform's error body (design: errors as { api_message, user_message }). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly apiMessage: string,
    readonly userMessage: string = apiMessage,
    /** Fields added to the error body, e.g. the step to carry on with after a wrong code. */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(apiMessage);
    this.name = "ApiError";
  }
}

export type ErrorBody = { api_message: string; user_message: string } & Record<string, unknown>;

export function errorBody(error: ApiError): ErrorBody {
  return { ...error.extra, api_message: error.apiMessage, user_message: error.userMessage };
}

export const MESSAGES = {
  noSession: "This feature is not available without a valid session",
  noEntityAccess: "Permission Error: You do not have access to this entity",
  adviserOnly: "Permission Error: This feature is only available to advisers",
  clientOnly: "Permission Error: This feature is only available to clients",
  noClientInContext: "I am not a clientUser and no client in context",
  badCredentials: "Either your username or your password is incorrect.",
  disabled: "Account has been disabled.",
  // spec 000 §8 sign-in and security messages, and the reference platform's own (docs/platform-api.md)
  deactivated: "Account deactivated",
  ticketInvalid: "Login ticket is invalid or has expired. Please log in again.",
  wrongStep: "This sign-in is at another step.",
  badCode:
    "There was an error with the authentication code you entered. A new code has been sent to you. Please try again.",
  badTokenCode: "There was an error with the authentication code you entered. Please try again.",
  badMemorable: "Incorrect memorable word characters. Please try again with the new positions.",
  memorableFailed: "Memorable word validation failed",
  tooManyCodes: "Too many codes have been requested. Please log in again.",
  tokenMakesCodes: "A software token makes its own codes.",
  verificationMissing: "An error occurred whilst requesting additional verification code",
  methodRequired: "MFA method required",
  methodNotAvailable: "MFA method not available",
  sameMethod: "This is already your additional verification method.",
  passwordRequired: "Password is required",
  passwordIncorrect: "The password is incorrect.",
  currentPasswordIncorrect: "The current password is incorrect.",
  codeInvalid: "The code is invalid",
  mfaNotEnabled: "Permission Error: Additional verification is not enabled for this user",
  resetCodeIncorrect: "Password reset code incorrect or invalid for user",
  argumentsIncorrect: "One or more of the arguments are missing or incorrect.",
  recoveryPaused:
    "Too many incorrect reset codes or answers for this username. Password reset is paused; please try again later.",
  usernameMismatch: "The supplied email and date of birth does not match our records. Please contact our office.",
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
export function validate<S extends z.ZodTypeAny>(
  schema: S,
  input: unknown,
  what: "query" | "body" | "path",
): z.output<S> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    throw new ApiError(400, `Invalid ${what}: ${describeIssues(parsed.error)}`, MESSAGES.argumentsIncorrect);
  }
  return parsed.data as z.output<S>;
}
