CREATE TABLE `account_groups` (
	`id` integer PRIMARY KEY NOT NULL,
	`group_code` text NOT NULL,
	`group_name` text NOT NULL,
	`entity_id` integer NOT NULL,
	`report_currency` text DEFAULT 'GBP' NOT NULL,
	FOREIGN KEY (`entity_id`) REFERENCES `entities`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `account_groups_group_code_unique` ON `account_groups` (`group_code`);--> statement-breakpoint
CREATE TABLE `accounts` (
	`id` integer PRIMARY KEY NOT NULL,
	`portfolio_id` integer NOT NULL,
	`account_group_id` integer,
	`description` text NOT NULL,
	`plan_currency` text NOT NULL,
	`report_currency` text NOT NULL,
	`service_type` text NOT NULL,
	`tax_structure` text,
	`product` text,
	`external_account_id` text,
	`subfund` text,
	`tax_type` text,
	`tax_type_title` text,
	`active_date` text,
	`inception_date` text NOT NULL,
	`vendor_id` text,
	`account_owner` integer NOT NULL,
	FOREIGN KEY (`portfolio_id`) REFERENCES `portfolios`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`account_group_id`) REFERENCES `account_groups`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`account_owner`) REFERENCES `entities`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `accounts_portfolio_idx` ON `accounts` (`portfolio_id`);--> statement-breakpoint
CREATE TABLE `benchmark_prices` (
	`benchmark_id` integer NOT NULL,
	`date` text NOT NULL,
	`level_micros` integer NOT NULL,
	PRIMARY KEY(`benchmark_id`, `date`),
	FOREIGN KEY (`benchmark_id`) REFERENCES `benchmarks`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `benchmarks` (
	`id` integer PRIMARY KEY NOT NULL,
	`code` text NOT NULL,
	`name` text NOT NULL,
	`currency` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `benchmarks_code_unique` ON `benchmarks` (`code`);--> statement-breakpoint
CREATE TABLE `fx_rates` (
	`currency` text NOT NULL,
	`date` text NOT NULL,
	`rate_micros` integer NOT NULL,
	PRIMARY KEY(`currency`, `date`)
);
--> statement-breakpoint
CREATE TABLE `other_asset_owners` (
	`asset_id` integer NOT NULL,
	`entity_id` integer NOT NULL,
	`percentage_bp` integer NOT NULL,
	PRIMARY KEY(`asset_id`, `entity_id`),
	FOREIGN KEY (`asset_id`) REFERENCES `other_assets`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`entity_id`) REFERENCES `entities`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `other_asset_owners_entity_idx` ON `other_asset_owners` (`entity_id`);--> statement-breakpoint
CREATE TABLE `other_assets` (
	`id` integer PRIMARY KEY NOT NULL,
	`entity_id` integer NOT NULL,
	`kind` text NOT NULL,
	`description` text NOT NULL,
	`type` text NOT NULL,
	`provider` text,
	`policy_number` text,
	`status` text NOT NULL,
	`currency` text NOT NULL,
	`value_minor` integer NOT NULL,
	`valuation_date` text NOT NULL,
	`is_sipp_wrapper` integer DEFAULT false NOT NULL,
	`under_advice` integer DEFAULT false NOT NULL,
	`contribution_total_minor` integer,
	`withdrawal_total_minor` integer,
	`crystallised_minor` integer,
	`uncrystallised_minor` integer,
	`income_value_minor` integer,
	`frequency` text,
	`rate_bp` integer,
	`capital_content_minor` integer,
	FOREIGN KEY (`entity_id`) REFERENCES `entities`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `other_assets_entity_idx` ON `other_assets` (`entity_id`);--> statement-breakpoint
CREATE TABLE `payment_methods` (
	`id` integer PRIMARY KEY NOT NULL,
	`account_id` integer NOT NULL,
	`kind` text NOT NULL,
	`biller_code` text,
	`reference` text,
	`bank` text,
	`account_name` text,
	`bsb` text,
	`account_number` text,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `payment_methods_account_idx` ON `payment_methods` (`account_id`);--> statement-breakpoint
CREATE TABLE `portfolio_visibility` (
	`portfolio_id` integer NOT NULL,
	`entity_id` integer NOT NULL,
	`reason_for_visibility` text NOT NULL,
	`sort_order` integer NOT NULL,
	`is_linked` integer DEFAULT false NOT NULL,
	PRIMARY KEY(`portfolio_id`, `entity_id`),
	FOREIGN KEY (`portfolio_id`) REFERENCES `portfolios`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`entity_id`) REFERENCES `entities`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `portfolio_visibility_entity_idx` ON `portfolio_visibility` (`entity_id`);--> statement-breakpoint
CREATE TABLE `portfolios` (
	`id` integer PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`full_name` text NOT NULL,
	`ptype` text NOT NULL,
	`entity_id` integer NOT NULL,
	`report_currency` text DEFAULT 'GBP' NOT NULL,
	`benchmark_id` integer,
	FOREIGN KEY (`entity_id`) REFERENCES `entities`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`benchmark_id`) REFERENCES `benchmarks`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `securities` (
	`id` integer PRIMARY KEY NOT NULL,
	`code` text NOT NULL,
	`exchange` text NOT NULL,
	`isin` text,
	`description` text NOT NULL,
	`sector_name` text NOT NULL,
	`asset_class_code` text NOT NULL,
	`region` text NOT NULL,
	`currency` text NOT NULL,
	`is_cash` integer DEFAULT false NOT NULL,
	`yield_bp` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `securities_code_exchange_idx` ON `securities` (`code`,`exchange`);--> statement-breakpoint
CREATE TABLE `security_prices` (
	`security_id` integer NOT NULL,
	`date` text NOT NULL,
	`price_micros` integer NOT NULL,
	PRIMARY KEY(`security_id`, `date`),
	FOREIGN KEY (`security_id`) REFERENCES `securities`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `target_set_securities` (
	`target_set_id` integer NOT NULL,
	`security_id` integer NOT NULL,
	`weight_bp` integer NOT NULL,
	PRIMARY KEY(`target_set_id`, `security_id`),
	FOREIGN KEY (`target_set_id`) REFERENCES `target_sets`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`security_id`) REFERENCES `securities`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `target_sets` (
	`id` integer PRIMARY KEY NOT NULL,
	`account_id` integer NOT NULL,
	`description` text NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `transactions` (
	`id` integer PRIMARY KEY NOT NULL,
	`account_id` integer NOT NULL,
	`security_id` integer NOT NULL,
	`type` text NOT NULL,
	`trade_date` text NOT NULL,
	`settlement_date` text NOT NULL,
	`quantity_micros` integer DEFAULT 0 NOT NULL,
	`price_micros` integer,
	`currency` text NOT NULL,
	`gross_minor` integer NOT NULL,
	`fee_minor` integer DEFAULT 0 NOT NULL,
	`tax_minor` integer DEFAULT 0 NOT NULL,
	`net_minor` integer NOT NULL,
	`cash_security_id` integer,
	`narrative` text,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`security_id`) REFERENCES `securities`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`cash_security_id`) REFERENCES `securities`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `transactions_account_date_idx` ON `transactions` (`account_id`,`trade_date`,`id`);