-- Webhook outbox pruning (issue 32): the worker deletes delivered rows older than the retention
-- (PORTICO_WEBHOOK_RETENTION_DAYS) and failed ones kept that long for replay, in batches. These
-- partial indexes let each batch find its rows without scanning the pending ones.
-- A failed row's next_attempt_ms is the time of its last attempt (worker.ts).
CREATE INDEX webhook_deliveries_delivered_idx ON webhook_deliveries (delivered_at) WHERE state = 'delivered';
CREATE INDEX webhook_deliveries_failed_idx ON webhook_deliveries (next_attempt_ms) WHERE state = 'failed';

-- LISTEN/NOTIFY (issue 32): a committed change to the apps' version row and a committed batch of
-- new outbox rows notify the other server processes (PostgreSQL sends a notification only at
-- commit, never for a rolled-back change). Processes listening (core/store/postgres.ts) reload
-- their apps or wake their webhook worker at once; polling stays as the fallback, and the only
-- path on PGlite, where nobody listens.
CREATE FUNCTION portico_notify_apps() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('portico_apps', NEW.version::text);
  RETURN NULL;
END $$;
CREATE TRIGGER app_settings_version_notify AFTER UPDATE ON app_settings_version
  FOR EACH ROW EXECUTE FUNCTION portico_notify_apps();

-- One notification per statement; its payload is an app id of the rows (no secret; listeners ignore it).
CREATE FUNCTION portico_notify_webhooks() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('portico_webhooks', coalesce((SELECT min(app_id) FROM new_rows), ''));
  RETURN NULL;
END $$;
CREATE TRIGGER webhook_deliveries_notify AFTER INSERT ON webhook_deliveries
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION portico_notify_webhooks();
