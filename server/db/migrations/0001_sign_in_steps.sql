CREATE TABLE `password_resets` (
	`id` integer PRIMARY KEY NOT NULL,
	`reference_hash` text NOT NULL,
	`user_id` integer,
	`method` text NOT NULL,
	`code_hash` text,
	`created_at` text NOT NULL,
	`expires_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `password_resets_reference_idx` ON `password_resets` (`reference_hash`);--> statement-breakpoint
CREATE INDEX `password_resets_user_idx` ON `password_resets` (`user_id`);--> statement-breakpoint
CREATE TABLE `pending_mfa_devices` (
	`id` integer PRIMARY KEY NOT NULL,
	`device_id` text NOT NULL,
	`user_id` integer NOT NULL,
	`method` text NOT NULL,
	`name` text NOT NULL,
	`totp_secret` text,
	`code_hash` text,
	`created_at` text NOT NULL,
	`expires_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `pending_mfa_devices_device_idx` ON `pending_mfa_devices` (`device_id`);--> statement-breakpoint
CREATE TABLE `terms_agreements` (
	`id` integer PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`terms_text` text NOT NULL,
	`agreed_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
ALTER TABLE `users` ADD `mfa_totp_last_step` integer;--> statement-breakpoint
ALTER TABLE `users` ADD `mfa_methods_allowed` text;