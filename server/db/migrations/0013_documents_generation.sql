-- The documents' counts are kept between calls (docs/decisions/160): every write to the tables they
-- are counted from counts one in derived_generation's row 2, apart from the figures' row 1.
INSERT INTO `derived_generation` (`id`, `generation`) VALUES (2, 0);
--> statement-breakpoint
CREATE TRIGGER `documents_insert_documents_generation` AFTER INSERT ON `documents` BEGIN UPDATE `derived_generation` SET `generation` = `generation` + 1 WHERE `id` = 2; END;
--> statement-breakpoint
CREATE TRIGGER `documents_update_documents_generation` AFTER UPDATE ON `documents` BEGIN UPDATE `derived_generation` SET `generation` = `generation` + 1 WHERE `id` = 2; END;
--> statement-breakpoint
CREATE TRIGGER `documents_delete_documents_generation` AFTER DELETE ON `documents` BEGIN UPDATE `derived_generation` SET `generation` = `generation` + 1 WHERE `id` = 2; END;
--> statement-breakpoint
CREATE TRIGGER `document_entities_insert_documents_generation` AFTER INSERT ON `document_entities` BEGIN UPDATE `derived_generation` SET `generation` = `generation` + 1 WHERE `id` = 2; END;
--> statement-breakpoint
CREATE TRIGGER `document_entities_update_documents_generation` AFTER UPDATE ON `document_entities` BEGIN UPDATE `derived_generation` SET `generation` = `generation` + 1 WHERE `id` = 2; END;
--> statement-breakpoint
CREATE TRIGGER `document_entities_delete_documents_generation` AFTER DELETE ON `document_entities` BEGIN UPDATE `derived_generation` SET `generation` = `generation` + 1 WHERE `id` = 2; END;
--> statement-breakpoint
CREATE TRIGGER `document_category_links_insert_documents_generation` AFTER INSERT ON `document_category_links` BEGIN UPDATE `derived_generation` SET `generation` = `generation` + 1 WHERE `id` = 2; END;
--> statement-breakpoint
CREATE TRIGGER `document_category_links_update_documents_generation` AFTER UPDATE ON `document_category_links` BEGIN UPDATE `derived_generation` SET `generation` = `generation` + 1 WHERE `id` = 2; END;
--> statement-breakpoint
CREATE TRIGGER `document_category_links_delete_documents_generation` AFTER DELETE ON `document_category_links` BEGIN UPDATE `derived_generation` SET `generation` = `generation` + 1 WHERE `id` = 2; END;
--> statement-breakpoint
CREATE TRIGGER `document_first_reads_insert_documents_generation` AFTER INSERT ON `document_first_reads` BEGIN UPDATE `derived_generation` SET `generation` = `generation` + 1 WHERE `id` = 2; END;
--> statement-breakpoint
CREATE TRIGGER `document_first_reads_update_documents_generation` AFTER UPDATE ON `document_first_reads` BEGIN UPDATE `derived_generation` SET `generation` = `generation` + 1 WHERE `id` = 2; END;
--> statement-breakpoint
CREATE TRIGGER `document_first_reads_delete_documents_generation` AFTER DELETE ON `document_first_reads` BEGIN UPDATE `derived_generation` SET `generation` = `generation` + 1 WHERE `id` = 2; END;
