// The login form's zod schema: the action parses posts with it; the browser imports this module
// only dynamically, after the page (issue 16).

import { z } from "zod";

export const UserType = z.enum(["client", "adviser"]);

export const LoginSchema = z.object({
  userType: UserType.default("client"),
  username: z.string({ required_error: "auth:login.errors.username" }).trim().min(1, "auth:login.errors.username"),
  password: z.string({ required_error: "auth:login.errors.password" }).min(1, "auth:login.errors.password"),
  redirectTo: z.string().optional(),
});
