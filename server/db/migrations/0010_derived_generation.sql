CREATE TABLE `derived_generation` (
	`id` integer PRIMARY KEY NOT NULL,
	`generation` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX `fx_rates_date_idx` ON `fx_rates` (`date`,`currency`);