-- Search in messages finds the words of the subject, the body and the attachments' names
-- (docs/decisions/209-message-search.md): an FTS5 index, one row per document (its rowid the
-- document's id), of the text a reader sees (server/db/message-search.ts), kept in step by the
-- triggers below. Deleted words are removed from the index's pages too ('secure-delete').
CREATE VIRTUAL TABLE `document_search` USING fts5(`subject`, `body`, `attachments`, tokenize = 'unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO `document_search` (`document_search`, `rank`) VALUES ('secure-delete', 1);
--> statement-breakpoint
INSERT INTO `document_search` (`rowid`, `subject`, `body`, `attachments`)
SELECT `d`.`id`, search_text(`d`.`subject`), search_body_text(`d`.`body`),
  search_attachment_names((SELECT group_concat(`a`.`filename`, char(10) ORDER BY `a`.`docpartid`) FROM `document_attachments` `a` WHERE `a`.`document_id` = `d`.`id`))
FROM `documents` `d`;
--> statement-breakpoint
CREATE TRIGGER `documents_insert_search` AFTER INSERT ON `documents` BEGIN
  INSERT INTO `document_search` (`rowid`, `subject`, `body`, `attachments`) VALUES (new.`id`, search_text(new.`subject`), search_body_text(new.`body`),
    search_attachment_names((SELECT group_concat(`a`.`filename`, char(10) ORDER BY `a`.`docpartid`) FROM `document_attachments` `a` WHERE `a`.`document_id` = new.`id`)));
END;
--> statement-breakpoint
CREATE TRIGGER `documents_update_search` AFTER UPDATE OF `id`, `subject`, `body` ON `documents` BEGIN
  DELETE FROM `document_search` WHERE `rowid` = old.`id`;
  INSERT INTO `document_search` (`rowid`, `subject`, `body`, `attachments`) VALUES (new.`id`, search_text(new.`subject`), search_body_text(new.`body`),
    search_attachment_names((SELECT group_concat(`a`.`filename`, char(10) ORDER BY `a`.`docpartid`) FROM `document_attachments` `a` WHERE `a`.`document_id` = new.`id`)));
END;
--> statement-breakpoint
CREATE TRIGGER `documents_delete_search` AFTER DELETE ON `documents` BEGIN
  DELETE FROM `document_search` WHERE `rowid` = old.`id`;
END;
--> statement-breakpoint
-- an attachment's name is searched too: the document's names again, and the documents' counts
-- (docs/decisions/160) counted afresh, since a search's count depends on them
CREATE TRIGGER `document_attachments_insert_search` AFTER INSERT ON `document_attachments` BEGIN
  UPDATE `document_search` SET `attachments` = search_attachment_names((SELECT group_concat(`a`.`filename`, char(10) ORDER BY `a`.`docpartid`) FROM `document_attachments` `a` WHERE `a`.`document_id` = new.`document_id`)) WHERE `rowid` = new.`document_id`;
  UPDATE `derived_generation` SET `generation` = `generation` + 1 WHERE `id` = 2;
END;
--> statement-breakpoint
CREATE TRIGGER `document_attachments_update_search` AFTER UPDATE OF `filename`, `document_id` ON `document_attachments` BEGIN
  UPDATE `document_search` SET `attachments` = search_attachment_names((SELECT group_concat(`a`.`filename`, char(10) ORDER BY `a`.`docpartid`) FROM `document_attachments` `a` WHERE `a`.`document_id` = old.`document_id`)) WHERE `rowid` = old.`document_id`;
  UPDATE `document_search` SET `attachments` = search_attachment_names((SELECT group_concat(`a`.`filename`, char(10) ORDER BY `a`.`docpartid`) FROM `document_attachments` `a` WHERE `a`.`document_id` = new.`document_id`)) WHERE `rowid` = new.`document_id`;
  UPDATE `derived_generation` SET `generation` = `generation` + 1 WHERE `id` = 2;
END;
--> statement-breakpoint
CREATE TRIGGER `document_attachments_delete_search` AFTER DELETE ON `document_attachments` BEGIN
  UPDATE `document_search` SET `attachments` = search_attachment_names((SELECT group_concat(`a`.`filename`, char(10) ORDER BY `a`.`docpartid`) FROM `document_attachments` `a` WHERE `a`.`document_id` = old.`document_id`)) WHERE `rowid` = old.`document_id`;
  UPDATE `derived_generation` SET `generation` = `generation` + 1 WHERE `id` = 2;
END;
