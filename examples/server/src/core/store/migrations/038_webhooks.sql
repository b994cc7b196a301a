-- Webhooks (issue 32): per-app endpoints, a durable outbox of deliveries, and every attempt.
--
-- webhook_endpoints: `secret` is the signing secret (whsec_…), sealed with PORTICO_SECRET (the
-- server must sign with it, so it cannot be a hash); `source` is 'config' for endpoints seeded
-- from apps.json (one per app and URL) and 'api' for those made through the service.
CREATE TABLE webhook_endpoints (
  id text PRIMARY KEY,
  app_id text NOT NULL,
  url text NOT NULL,
  secret text NOT NULL,
  events text[] NOT NULL,
  enabled boolean NOT NULL DEFAULT true,
  source text NOT NULL DEFAULT 'api',
  created_at bigint NOT NULL,
  updated_at bigint NOT NULL
);
CREATE INDEX webhook_endpoints_app_idx ON webhook_endpoints (app_id) WHERE enabled;
CREATE UNIQUE INDEX webhook_endpoints_config_idx ON webhook_endpoints (app_id, url) WHERE source = 'config';

-- One row per event and endpoint, written in the transaction of the change (core/events.ts).
-- `id` is the Standard Webhooks message id (webhook-id), the same on every attempt. `payload`
-- is the exact JSON that is signed and sent. The worker leases due rows (lease_until_ms) with
-- FOR UPDATE SKIP LOCKED; state: pending → delivered | failed (attempts spent).
CREATE TABLE webhook_deliveries (
  id text PRIMARY KEY,
  endpoint_id text NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  app_id text NOT NULL,
  event_type text NOT NULL,
  payload text NOT NULL,
  created_at bigint NOT NULL,
  state text NOT NULL DEFAULT 'pending',
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_ms bigint NOT NULL,
  lease_until_ms bigint,
  last_status integer,
  delivered_at bigint
);
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_ms) WHERE state = 'pending';
CREATE INDEX webhook_deliveries_endpoint_idx ON webhook_deliveries (endpoint_id, created_at);

-- The delivery log: one row per attempt (HTTP status or error, duration).
CREATE TABLE webhook_attempts (
  id bigserial PRIMARY KEY,
  delivery_id text NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
  attempt integer NOT NULL,
  at bigint NOT NULL,
  status integer,
  duration_ms integer NOT NULL,
  error text
);
CREATE INDEX webhook_attempts_delivery_idx ON webhook_attempts (delivery_id);
