CREATE TABLE `client_bank_accounts` (
	`id` integer PRIMARY KEY NOT NULL,
	`entity_id` integer NOT NULL,
	`bank_name` text NOT NULL,
	`account_name` text NOT NULL,
	`sort_code` text,
	`bsb` text,
	`account_number` text NOT NULL,
	`is_default` integer DEFAULT false NOT NULL,
	FOREIGN KEY (`entity_id`) REFERENCES `entities`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `client_bank_accounts_entity_idx` ON `client_bank_accounts` (`entity_id`);