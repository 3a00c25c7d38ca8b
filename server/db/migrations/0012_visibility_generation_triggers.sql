-- The portfolios, accounts and client-group members an entity sees are kept between calls like the
-- derived figures (docs/decisions/123, 158): every write to the tables they are read from counts one
-- in derived_generation too.
CREATE TRIGGER `portfolios_insert_derived` AFTER INSERT ON `portfolios` BEGIN UPDATE `derived_generation` SET `generation` = `generation` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `portfolios_update_derived` AFTER UPDATE ON `portfolios` BEGIN UPDATE `derived_generation` SET `generation` = `generation` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `portfolios_delete_derived` AFTER DELETE ON `portfolios` BEGIN UPDATE `derived_generation` SET `generation` = `generation` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `portfolio_visibility_insert_derived` AFTER INSERT ON `portfolio_visibility` BEGIN UPDATE `derived_generation` SET `generation` = `generation` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `portfolio_visibility_update_derived` AFTER UPDATE ON `portfolio_visibility` BEGIN UPDATE `derived_generation` SET `generation` = `generation` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `portfolio_visibility_delete_derived` AFTER DELETE ON `portfolio_visibility` BEGIN UPDATE `derived_generation` SET `generation` = `generation` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `account_groups_insert_derived` AFTER INSERT ON `account_groups` BEGIN UPDATE `derived_generation` SET `generation` = `generation` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `account_groups_update_derived` AFTER UPDATE ON `account_groups` BEGIN UPDATE `derived_generation` SET `generation` = `generation` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `account_groups_delete_derived` AFTER DELETE ON `account_groups` BEGIN UPDATE `derived_generation` SET `generation` = `generation` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `client_group_members_insert_derived` AFTER INSERT ON `client_group_members` BEGIN UPDATE `derived_generation` SET `generation` = `generation` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `client_group_members_update_derived` AFTER UPDATE ON `client_group_members` BEGIN UPDATE `derived_generation` SET `generation` = `generation` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `client_group_members_delete_derived` AFTER DELETE ON `client_group_members` BEGIN UPDATE `derived_generation` SET `generation` = `generation` + 1 WHERE `id` = 1; END;
