-- Operating a server (issue 32): app settings in the database, the admin API's keys,
-- operators, audit trail and user imports.

-- One row per app: `settings` is the app as apps.json writes it (camelCase), validated with
-- the server's own schema (config.ts) before it is written. The app secret is never stored:
-- `settings.appSecretHash` is its SHA-256 (hex). source: 'seed' (imported from apps.json;
-- re-imported while nobody has changed it) or 'admin' (changed through the admin API: the
-- file no longer overrides it). deleted_at: deleted through the admin API; the row stays so
-- that the seed file does not bring the app back at the next start.
CREATE TABLE app_settings (
  id text PRIMARY KEY,
  settings jsonb NOT NULL,
  source text NOT NULL DEFAULT 'seed' CHECK (source IN ('seed', 'admin')),
  created_at bigint NOT NULL,
  updated_at bigint NOT NULL,
  deleted_at bigint
);

-- Bumped by every change of app_settings, in the same transaction: each server process polls
-- this one row (a few times a second) and reloads the apps when it moved.
CREATE TABLE app_settings_version (
  id integer PRIMARY KEY CHECK (id = 1),
  version bigint NOT NULL
);
INSERT INTO app_settings_version (id, version) VALUES (1, 0);

-- Who changed what: one row per change made through the admin API (and per seed import).
-- actor: 'seed', 'env-key' (PORTICO_ADMIN_API_KEY), 'key:<id>' or 'operator:<e-mail>'.
CREATE TABLE admin_audit (
  id bigserial PRIMARY KEY,
  actor text NOT NULL,
  action text NOT NULL,
  app_id text,
  target text,
  before jsonb,
  after jsonb,
  created_at bigint NOT NULL
);
CREATE INDEX admin_audit_app_idx ON admin_audit (app_id, id DESC);

-- Scoped API keys for automation: only the SHA-256 (hex) of the key is kept; the key itself
-- is shown once, at creation.
CREATE TABLE admin_api_keys (
  id text PRIMARY KEY,
  name text NOT NULL,
  key_hash text NOT NULL UNIQUE,
  scopes text[] NOT NULL,
  created_by text NOT NULL,
  created_at bigint NOT NULL,
  last_used_at bigint,
  revoked_at bigint
);

-- Operators: users of the console app (portico-console-app-00001) who sign in through Portico
-- itself; matched by a verified e-mail address of theirs.
CREATE TABLE admin_operators (
  email text PRIMARY KEY,
  role text NOT NULL CHECK (role IN ('owner', 'admin', 'viewer')),
  added_by text NOT NULL,
  created_at bigint NOT NULL
);

-- User imports: one job per (app, idempotency key); the same key again answers the same job.
CREATE TABLE admin_user_imports (
  id text PRIMARY KEY,
  app_id text NOT NULL,
  idempotency_key text NOT NULL,
  body_hash text NOT NULL,
  payload jsonb NOT NULL,
  status text NOT NULL CHECK (status IN ('running', 'done', 'failed')),
  total integer NOT NULL,
  processed integer NOT NULL DEFAULT 0,
  created integer NOT NULL DEFAULT 0,
  existing integer NOT NULL DEFAULT 0,
  failed integer NOT NULL DEFAULT 0,
  errors jsonb NOT NULL DEFAULT '[]',
  created_by text NOT NULL,
  created_at bigint NOT NULL,
  updated_at bigint NOT NULL,
  UNIQUE (app_id, idempotency_key)
);

-- The admin API's user search looks accounts up by identifier within an app, whatever the type.
CREATE INDEX accounts_app_identifier_idx ON accounts (app_id, identifier);
