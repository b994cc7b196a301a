-- The dev outbox shows notices too (issue 26: 'A new device was added to your wallet'), not
-- only codes. `kind` 'code' rows are what /dev/outbox lists by default (a code reader keeps
-- reading the newest code); 'notice' rows carry the notice's text in `code`.
ALTER TABLE outbox ADD COLUMN kind text NOT NULL DEFAULT 'code';
