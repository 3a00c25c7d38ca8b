ALTER TABLE `sessions` ADD `user_agent` text;--> statement-breakpoint
ALTER TABLE `sessions` ADD `client_address` text;--> statement-breakpoint
CREATE INDEX `sessions_user_idx` ON `sessions` (`user_id`);