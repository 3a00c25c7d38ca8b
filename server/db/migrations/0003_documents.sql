CREATE TABLE `document_accounts` (
	`document_id` integer NOT NULL,
	`account_id` integer NOT NULL,
	PRIMARY KEY(`document_id`, `account_id`),
	FOREIGN KEY (`document_id`) REFERENCES `documents`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `document_attachments` (
	`docpartid` integer PRIMARY KEY NOT NULL,
	`document_id` integer NOT NULL,
	`filename` text NOT NULL,
	`content_type` text NOT NULL,
	`size` integer NOT NULL,
	`content` blob NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`document_id`) REFERENCES `documents`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `document_attachments_document_idx` ON `document_attachments` (`document_id`);--> statement-breakpoint
CREATE TABLE `document_categories` (
	`id` integer PRIMARY KEY NOT NULL,
	`name` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `document_category_links` (
	`document_id` integer NOT NULL,
	`category_id` integer NOT NULL,
	PRIMARY KEY(`document_id`, `category_id`),
	FOREIGN KEY (`document_id`) REFERENCES `documents`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`category_id`) REFERENCES `document_categories`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `document_entities` (
	`document_id` integer NOT NULL,
	`entity_id` integer NOT NULL,
	PRIMARY KEY(`document_id`, `entity_id`),
	FOREIGN KEY (`document_id`) REFERENCES `documents`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`entity_id`) REFERENCES `entities`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `document_entities_entity_idx` ON `document_entities` (`entity_id`);--> statement-breakpoint
CREATE TABLE `document_first_reads` (
	`document_id` integer NOT NULL,
	`entity_id` integer NOT NULL,
	`read_at` text NOT NULL,
	PRIMARY KEY(`document_id`, `entity_id`),
	FOREIGN KEY (`document_id`) REFERENCES `documents`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`entity_id`) REFERENCES `entities`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `document_types` (
	`code` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `documents` (
	`id` integer PRIMARY KEY NOT NULL,
	`subject` text NOT NULL,
	`body` text NOT NULL,
	`doctype` text NOT NULL,
	`docsubtype` text,
	`created_at` text NOT NULL,
	`reference_date` text,
	`is_client_access_accessible` integer DEFAULT false NOT NULL,
	`edit_privilege` integer DEFAULT 0 NOT NULL,
	`permission` text,
	`digital_signature_status` text,
	`notif_template_id` integer,
	`creator_user_id` integer,
	`creator_name` text NOT NULL,
	FOREIGN KEY (`doctype`) REFERENCES `document_types`(`code`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`notif_template_id`) REFERENCES `email_templates`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`creator_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `documents_created_idx` ON `documents` (`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `email_templates` (
	`id` integer PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`subject` text NOT NULL,
	`body` text NOT NULL
);
