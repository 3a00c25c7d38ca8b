ALTER TABLE `securities` ADD `asset_class_allocation` text;--> statement-breakpoint
ALTER TABLE `securities` ADD `regional_allocation` text;