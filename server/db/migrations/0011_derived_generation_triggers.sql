-- Every write to what the derived figures are computed from counts one in derived_generation
-- (docs/decisions/123-platform-derived-figures.md): caches compare the count before answering.
INSERT INTO `derived_generation` (`id`, `generation`) VALUES (1, 0);
--> statement-breakpoint
CREATE TRIGGER `transactions_insert_derived` AFTER INSERT ON `transactions` BEGIN UPDATE `derived_generation` SET `generation` = `generation` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `transactions_update_derived` AFTER UPDATE ON `transactions` BEGIN UPDATE `derived_generation` SET `generation` = `generation` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `transactions_delete_derived` AFTER DELETE ON `transactions` BEGIN UPDATE `derived_generation` SET `generation` = `generation` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `security_prices_insert_derived` AFTER INSERT ON `security_prices` BEGIN UPDATE `derived_generation` SET `generation` = `generation` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `security_prices_update_derived` AFTER UPDATE ON `security_prices` BEGIN UPDATE `derived_generation` SET `generation` = `generation` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `security_prices_delete_derived` AFTER DELETE ON `security_prices` BEGIN UPDATE `derived_generation` SET `generation` = `generation` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `fx_rates_insert_derived` AFTER INSERT ON `fx_rates` BEGIN UPDATE `derived_generation` SET `generation` = `generation` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `fx_rates_update_derived` AFTER UPDATE ON `fx_rates` BEGIN UPDATE `derived_generation` SET `generation` = `generation` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `fx_rates_delete_derived` AFTER DELETE ON `fx_rates` BEGIN UPDATE `derived_generation` SET `generation` = `generation` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `securities_insert_derived` AFTER INSERT ON `securities` BEGIN UPDATE `derived_generation` SET `generation` = `generation` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `securities_update_derived` AFTER UPDATE ON `securities` BEGIN UPDATE `derived_generation` SET `generation` = `generation` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `securities_delete_derived` AFTER DELETE ON `securities` BEGIN UPDATE `derived_generation` SET `generation` = `generation` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `accounts_insert_derived` AFTER INSERT ON `accounts` BEGIN UPDATE `derived_generation` SET `generation` = `generation` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `accounts_update_derived` AFTER UPDATE ON `accounts` BEGIN UPDATE `derived_generation` SET `generation` = `generation` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `accounts_delete_derived` AFTER DELETE ON `accounts` BEGIN UPDATE `derived_generation` SET `generation` = `generation` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `benchmarks_insert_derived` AFTER INSERT ON `benchmarks` BEGIN UPDATE `derived_generation` SET `generation` = `generation` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `benchmarks_update_derived` AFTER UPDATE ON `benchmarks` BEGIN UPDATE `derived_generation` SET `generation` = `generation` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `benchmarks_delete_derived` AFTER DELETE ON `benchmarks` BEGIN UPDATE `derived_generation` SET `generation` = `generation` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `benchmark_prices_insert_derived` AFTER INSERT ON `benchmark_prices` BEGIN UPDATE `derived_generation` SET `generation` = `generation` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `benchmark_prices_update_derived` AFTER UPDATE ON `benchmark_prices` BEGIN UPDATE `derived_generation` SET `generation` = `generation` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `benchmark_prices_delete_derived` AFTER DELETE ON `benchmark_prices` BEGIN UPDATE `derived_generation` SET `generation` = `generation` + 1 WHERE `id` = 1; END;
