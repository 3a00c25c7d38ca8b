// spec 002 §5 "Compose" and §9 "Attachments": the zod schemas of the compose and reply form (the
// rules in compose.ts). The action parses posts with them; the browser imports this module only
// dynamically (issue 16).

import { z } from "zod";
import { attachmentErrors, BODY_MAX_LENGTH, chosenFiles, COMPOSE_ERRORS, SUBJECT_MAX_LENGTH } from "./compose";

const subjectField = z
  .string({ required_error: COMPOSE_ERRORS.subjectRequired })
  .trim()
  .min(1, COMPOSE_ERRORS.subjectRequired)
  .max(SUBJECT_MAX_LENGTH, COMPOSE_ERRORS.subjectTooLong);

/**
 * The form's text fields. A reply (replyTo set) has no subject of its own: the action computes it
 * from the original message, so whatever subject a browser sends with a reply is ignored.
 */
export const ComposeSchema = z
  .object({
    replyTo: z
      .string()
      .regex(/^\d{1,15}$/)
      .optional(),
    subject: z.string().optional(),
    body: z.string().max(BODY_MAX_LENGTH, COMPOSE_ERRORS.bodyTooLong).optional(),
  })
  .superRefine((value, ctx) => {
    if (value.replyTo) return;
    const subject = subjectField.safeParse(value.subject);
    if (!subject.success)
      ctx.addIssue({ code: "custom", path: ["subject"], message: subject.error.issues[0]!.message });
  })
  .transform((value) => ({
    replyTo: value.replyTo ? Number(value.replyTo) : null,
    subject: value.replyTo ? null : (value.subject ?? "").trim(),
    body: value.body ?? "",
  }));

/** The browser's schema: the text fields and the chosen files (read from the File objects). */
export const ComposeBrowserSchema = z
  .object({
    replyTo: z.string().optional(),
    subject: z.string().optional(),
    body: z.string().optional(),
    attachments: z.unknown().optional(),
  })
  .superRefine((value, ctx) => {
    const text = ComposeSchema.safeParse({ replyTo: value.replyTo, subject: value.subject, body: value.body });
    if (!text.success)
      for (const issue of text.error.issues) ctx.addIssue({ code: "custom", path: issue.path, message: issue.message });
    for (const message of attachmentErrors(chosenFiles(value.attachments))) {
      ctx.addIssue({ code: "custom", path: ["attachments"], message });
    }
  });
