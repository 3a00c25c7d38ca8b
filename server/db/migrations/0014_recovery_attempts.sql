CREATE TABLE `platform_keys` (
	`name` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `recovery_attempts` (
	`username_key` text PRIMARY KEY NOT NULL,
	`failures` integer DEFAULT 0 NOT NULL,
	`window_started_at` text NOT NULL,
	`paused_until` text
);
--> statement-breakpoint
ALTER TABLE `password_resets` ADD `username_key` text;
--> statement-breakpoint
-- The key that chooses an unknown username's plausible reset step and questions (docs/decisions/163):
-- random for each database, kept with it so a username is answered the same after a restart.
INSERT INTO `platform_keys` (`name`, `value`) VALUES ('recovery_decoys', lower(hex(randomblob(32))));
