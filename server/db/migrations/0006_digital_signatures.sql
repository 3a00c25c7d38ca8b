CREATE TABLE `digital_signature_codes` (
	`id` integer PRIMARY KEY NOT NULL,
	`signatory_id` integer NOT NULL,
	`code_hash` text NOT NULL,
	`created_at` text NOT NULL,
	`expires_at` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`spent` integer DEFAULT false NOT NULL,
	FOREIGN KEY (`signatory_id`) REFERENCES `digital_signature_signatories`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `digital_signature_codes_signatory_idx` ON `digital_signature_codes` (`signatory_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `digital_signature_signatories` (
	`id` integer PRIMARY KEY NOT NULL,
	`digital_signature_id` integer NOT NULL,
	`entity_id` integer NOT NULL,
	`signing_method` integer DEFAULT 1 NOT NULL,
	`signed_at` text,
	`declined_at` text,
	FOREIGN KEY (`digital_signature_id`) REFERENCES `digital_signatures`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`entity_id`) REFERENCES `entities`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `digital_signature_signatories_item_idx` ON `digital_signature_signatories` (`digital_signature_id`);--> statement-breakpoint
CREATE INDEX `digital_signature_signatories_entity_idx` ON `digital_signature_signatories` (`entity_id`);--> statement-breakpoint
CREATE TABLE `digital_signatures` (
	`id` integer PRIMARY KEY NOT NULL,
	`document_id` integer NOT NULL,
	`filename` text NOT NULL,
	`title` text NOT NULL,
	`body_text` text NOT NULL,
	`due_date` text,
	`status` integer NOT NULL,
	`secure_data` text NOT NULL,
	`signing_method` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	`last_notified_at` text NOT NULL,
	`copied_from` integer,
	FOREIGN KEY (`document_id`) REFERENCES `documents`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `digital_signatures_notified_idx` ON `digital_signatures` (`last_notified_at`,`id`);--> statement-breakpoint
CREATE INDEX `digital_signatures_document_idx` ON `digital_signatures` (`document_id`);