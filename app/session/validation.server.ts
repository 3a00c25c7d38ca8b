// The server's side of form validation: Conform's zod adapter and the forms' schemas, for
// loaders and actions. Route modules import them from here, never from zod or a schema module
// directly: a `.server` module is empty in the browser build, while any static import of zod in a
// route module (even one that only its action uses) puts zod in the page's first load (issue 16,
// docs/decisions/104). The browser loads the same schemas after the page
// (app/components/browser-validation.ts).
export { parseWithZod } from "@conform-to/zod";
export {
  ChangePasswordSchema,
  createMethodChangeSchema,
  createSecurityQuestionsSchema,
  CurrentPasswordSchema,
  MfaCodeSchema,
  PreferencesSchema,
} from "~/lib/security-schemas";
export {
  createForgottenUsernameSchema,
  ForgottenPasswordSchema,
  QuestionsResetSchema,
  RecoveryUserType,
  ResetCodeSchema,
} from "~/lib/recovery-schemas";
export { createClientSearchSchema, OpenClientSchema } from "~/lib/client-search-schemas";
