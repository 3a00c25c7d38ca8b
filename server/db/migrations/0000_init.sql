CREATE TABLE `addresses` (
	`id` integer PRIMARY KEY NOT NULL,
	`entity_id` integer NOT NULL,
	`type` integer NOT NULL,
	`block` text,
	`street_name` text,
	`street_name_2` text,
	`street` text,
	`suburb` text,
	`state` text,
	`country` text DEFAULT 'GB' NOT NULL,
	`postcode` text,
	`postcode_key` text,
	`preferred` integer DEFAULT false NOT NULL,
	`status` text DEFAULT 'Current' NOT NULL,
	FOREIGN KEY (`entity_id`) REFERENCES `entities`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `addresses_entity_idx` ON `addresses` (`entity_id`);--> statement-breakpoint
CREATE INDEX `addresses_postcode_idx` ON `addresses` (`postcode_key`);--> statement-breakpoint
CREATE TABLE `adviser_clients` (
	`adviser_user_id` integer NOT NULL,
	`client_entity_id` integer NOT NULL,
	`is_primary` integer DEFAULT false NOT NULL,
	PRIMARY KEY(`adviser_user_id`, `client_entity_id`),
	FOREIGN KEY (`adviser_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`client_entity_id`) REFERENCES `entities`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `adviser_clients_client_idx` ON `adviser_clients` (`client_entity_id`);--> statement-breakpoint
CREATE TABLE `adviser_profiles` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`adviser_name` text NOT NULL,
	`role` text,
	`photo` text,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `capabilities` (
	`entity_id` integer NOT NULL,
	`name` text NOT NULL,
	PRIMARY KEY(`entity_id`, `name`),
	FOREIGN KEY (`entity_id`) REFERENCES `entities`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `client_group_members` (
	`group_id` integer NOT NULL,
	`entity_id` integer NOT NULL,
	`relationship` text NOT NULL,
	`login_accessible` integer DEFAULT false NOT NULL,
	`sort_order` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`group_id`, `entity_id`),
	FOREIGN KEY (`group_id`) REFERENCES `client_groups`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`entity_id`) REFERENCES `entities`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `members_entity_idx` ON `client_group_members` (`entity_id`);--> statement-breakpoint
CREATE TABLE `client_groups` (
	`id` integer PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`primary_entity_id` integer NOT NULL,
	FOREIGN KEY (`primary_entity_id`) REFERENCES `entities`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `contacts` (
	`id` integer PRIMARY KEY NOT NULL,
	`entity_id` integer NOT NULL,
	`type` text NOT NULL,
	`value` text NOT NULL,
	`preferred` integer DEFAULT false NOT NULL,
	`country_code` text,
	FOREIGN KEY (`entity_id`) REFERENCES `entities`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `contacts_entity_idx` ON `contacts` (`entity_id`);--> statement-breakpoint
CREATE TABLE `entities` (
	`id` integer PRIMARY KEY NOT NULL,
	`firm_id` integer NOT NULL,
	`entity_type` text NOT NULL,
	`title` text,
	`first_name` text NOT NULL,
	`middle_name` text,
	`last_name` text NOT NULL,
	`preferred_name` text,
	`display_name` text NOT NULL,
	`salutation` text,
	`address_title` text,
	`search_text` text NOT NULL,
	`sort_name` text NOT NULL,
	`dob` text,
	`country_of_birth` text,
	`preferred_email` text,
	`marital_status` text,
	`dependents` integer DEFAULT 0 NOT NULL,
	`client_access_level` integer DEFAULT 0 NOT NULL,
	`comm_pref_email` text DEFAULT '1' NOT NULL,
	`comm_pref_mail` text DEFAULT '0' NOT NULL,
	`comm_pref_sms` text DEFAULT '0' NOT NULL,
	`plan_currency` text DEFAULT 'GBP' NOT NULL,
	`xpt_review_status` text,
	`fact_find_status` text DEFAULT '0' NOT NULL,
	`robo_journey_type` text,
	`robo_journey_status` text,
	`consent_workflow_status` text,
	`fee_summary_opt_in_status` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`firm_id`) REFERENCES `firms`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `entities_sort_name_idx` ON `entities` (`sort_name`,`id`);--> statement-breakpoint
CREATE INDEX `entities_dob_idx` ON `entities` (`dob`);--> statement-breakpoint
CREATE TABLE `feature_access` (
	`name` text PRIMARY KEY NOT NULL,
	`enabled` integer DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE `feature_toggles` (
	`name` text PRIMARY KEY NOT NULL,
	`enabled` integer DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE `firms` (
	`id` integer PRIMARY KEY NOT NULL,
	`code` text NOT NULL,
	`name` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `firms_code_unique` ON `firms` (`code`);--> statement-breakpoint
CREATE TABLE `general_contacts` (
	`locale` text PRIMARY KEY NOT NULL,
	`contact_type` text NOT NULL,
	`introduction` text,
	`contact_name` text,
	`contact_description` text,
	`telephone_number` text,
	`email_address` text,
	`opening_hours` text,
	`address` text,
	`hide_avatars` integer DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE `login_profiles` (
	`id` integer PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`session_timeout` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `login_tickets` (
	`id` integer PRIMARY KEY NOT NULL,
	`ticket_hash` text NOT NULL,
	`user_id` integer NOT NULL,
	`step` text NOT NULL,
	`state` text DEFAULT '{}' NOT NULL,
	`created_at` text NOT NULL,
	`expires_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `login_tickets_hash_idx` ON `login_tickets` (`ticket_hash`);--> statement-breakpoint
CREATE TABLE `outbox` (
	`id` integer PRIMARY KEY NOT NULL,
	`to` text NOT NULL,
	`username` text,
	`channel` text NOT NULL,
	`subject` text,
	`body` text NOT NULL,
	`code` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `outbox_to_idx` ON `outbox` (`to`);--> statement-breakpoint
CREATE TABLE `security_questions` (
	`id` integer PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`position` integer NOT NULL,
	`question` text NOT NULL,
	`answer_hash` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `security_questions_user_pos_idx` ON `security_questions` (`user_id`,`position`);--> statement-breakpoint
CREATE TABLE `sessions` (
	`id` integer PRIMARY KEY NOT NULL,
	`token_hash` text NOT NULL,
	`user_id` integer NOT NULL,
	`created_at` text NOT NULL,
	`last_seen_at` text NOT NULL,
	`client_in_context_id` integer,
	`preview_access_level` integer,
	`is_preview_mode` integer DEFAULT false NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`client_in_context_id`) REFERENCES `entities`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `sessions_token_idx` ON `sessions` (`token_hash`);--> statement-breakpoint
CREATE TABLE `site_content` (
	`segment` text NOT NULL,
	`locale` text NOT NULL,
	`title` text NOT NULL,
	`html` text NOT NULL,
	PRIMARY KEY(`segment`, `locale`)
);
--> statement-breakpoint
CREATE TABLE `site_settings` (
	`key` text PRIMARY KEY NOT NULL,
	`value_json` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `users` (
	`id` integer PRIMARY KEY NOT NULL,
	`firm_id` integer NOT NULL,
	`username` text NOT NULL,
	`username_key` text NOT NULL,
	`password_hash` text NOT NULL,
	`role_name` text NOT NULL,
	`entity_id` integer NOT NULL,
	`locale` text DEFAULT 'en-GB' NOT NULL,
	`timezone` text DEFAULT 'Europe/London' NOT NULL,
	`preferred_currency` text DEFAULT 'GBP' NOT NULL,
	`login_profile_id` integer DEFAULT 1 NOT NULL,
	`login_method` text DEFAULT 'Basic' NOT NULL,
	`disabled` integer DEFAULT false NOT NULL,
	`failed_attempts` integer DEFAULT 0 NOT NULL,
	`locked_until` text,
	`force_change_password` integer DEFAULT false NOT NULL,
	`must_agree_terms` integer DEFAULT false NOT NULL,
	`must_set_security_questions` integer DEFAULT false NOT NULL,
	`mfa_method` text,
	`mfa_enrolled` integer DEFAULT false NOT NULL,
	`mfa_mobile` text,
	`mfa_email` text,
	`mfa_totp_secret` text,
	`memorable_word` text,
	`memorable_word_hint` text,
	`last_login` text,
	`previous_login` text,
	`terms_agreed_at` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`firm_id`) REFERENCES `firms`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`entity_id`) REFERENCES `entities`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`login_profile_id`) REFERENCES `login_profiles`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_username_key_idx` ON `users` (`username_key`);--> statement-breakpoint
CREATE INDEX `users_entity_idx` ON `users` (`entity_id`);