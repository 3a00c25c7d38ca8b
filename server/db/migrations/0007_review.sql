CREATE TABLE `review_pages` (
	`locale` text NOT NULL,
	`order_no` integer NOT NULL,
	`type` text NOT NULL,
	`heading` text NOT NULL,
	`secondary_heading` text,
	`introduction_text` text,
	`client_question` text,
	`partner_question` text,
	`alternate_client_question` text,
	`alternate_partner_question` text,
	`hint` text,
	`show_additional_information` integer DEFAULT false NOT NULL,
	`fields` text DEFAULT '[]' NOT NULL,
	`changes_text` text,
	`no_changes_text` text,
	`success_text` text,
	`error_text` text,
	`display_adviser_detail` integer DEFAULT false NOT NULL,
	`adviser_details_header` text,
	PRIMARY KEY(`locale`, `order_no`)
);
--> statement-breakpoint
CREATE TABLE `review_states` (
	`entity_id` integer PRIMARY KEY NOT NULL,
	`order_no` integer NOT NULL,
	`respond_for_partner` integer,
	`client_questions` text DEFAULT '[]' NOT NULL,
	`partner_questions` text DEFAULT '[]' NOT NULL,
	`is_submitted` integer DEFAULT false NOT NULL,
	`submitted_at` text,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`entity_id`) REFERENCES `entities`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
ALTER TABLE `email_templates` ADD `purpose` text;--> statement-breakpoint
ALTER TABLE `entities` ADD `risk_profile_index` integer;