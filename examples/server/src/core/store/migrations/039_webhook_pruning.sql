-- Webhook outbox pruning (issue 32): the worker deletes delivered rows older than the retention
-- (PORTICO_WEBHOOK_RETENTION_DAYS) and failed ones kept that long for replay, in batches. These
-- partial indexes let each batch find its rows without scanning the pending ones.
-- A failed row's next_attempt_ms is the time of its last attempt (worker.ts).
CREATE INDEX webhook_deliveries_delivered_idx ON webhook_deliveries (delivered_at) WHERE state = 'delivered';
CREATE INDEX webhook_deliveries_failed_idx ON webhook_deliveries (next_attempt_ms) WHERE state = 'failed';
