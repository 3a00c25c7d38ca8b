CREATE TABLE `report_jobs` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`entity_id` integer NOT NULL,
	`template_id` integer,
	`group_code` text,
	`variables` text DEFAULT '{}' NOT NULL,
	`status` text NOT NULL,
	`error` text,
	`created_at` text NOT NULL,
	`started_at` text,
	`finished_at` text,
	`pdf` blob,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`entity_id`) REFERENCES `entities`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`template_id`) REFERENCES `report_templates`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `report_jobs_status_idx` ON `report_jobs` (`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `report_jobs_user_idx` ON `report_jobs` (`user_id`);--> statement-breakpoint
CREATE TABLE `report_template_clients` (
	`template_id` integer NOT NULL,
	`entity_id` integer NOT NULL,
	PRIMARY KEY(`template_id`, `entity_id`),
	FOREIGN KEY (`template_id`) REFERENCES `report_templates`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`entity_id`) REFERENCES `entities`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `report_template_clients_entity_idx` ON `report_template_clients` (`entity_id`);--> statement-breakpoint
CREATE TABLE `report_templates` (
	`id` integer PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`user_type` text NOT NULL,
	`date_parameters` text NOT NULL,
	`required_selector` text NOT NULL,
	`all_clients` integer DEFAULT false NOT NULL,
	`sort_order` integer DEFAULT 0 NOT NULL
);
