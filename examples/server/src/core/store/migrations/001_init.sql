-- Portico reference server schema. Timestamps are seconds since the epoch (bigint).

CREATE TABLE users (
  id text PRIMARY KEY,
  app_id text NOT NULL,
  created_at bigint NOT NULL,
  has_accepted_terms boolean NOT NULL DEFAULT false,
  is_guest boolean NOT NULL DEFAULT false,
  guest_credential_hash text UNIQUE,
  custom_metadata jsonb
);
CREATE INDEX users_app_idx ON users (app_id);

-- One row per linked account. identifier is the normalised unique key within (app, type).
CREATE TABLE accounts (
  id bigserial PRIMARY KEY,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  app_id text NOT NULL,
  type text NOT NULL,
  identifier text NOT NULL,
  data jsonb NOT NULL,
  first_verified_at bigint NOT NULL,
  latest_verified_at bigint NOT NULL,
  created_at bigint NOT NULL,
  UNIQUE (app_id, type, identifier)
);
CREATE INDEX accounts_user_idx ON accounts (user_id);

-- A session is one chain of refresh tokens; a family groups a login and its forks.
CREATE TABLE sessions (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  app_id text NOT NULL,
  family_id text NOT NULL,
  created_at bigint NOT NULL,
  revoked_at bigint
);
CREATE INDEX sessions_family_idx ON sessions (family_id);
CREATE INDEX sessions_user_idx ON sessions (user_id);

-- Refresh tokens, stored as sha256 hex. state: active | rotated | revoked.
CREATE TABLE refresh_tokens (
  token_hash text PRIMARY KEY,
  session_id text NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  state text NOT NULL,
  kind text NOT NULL DEFAULT 'session',
  created_at bigint NOT NULL,
  expires_at bigint NOT NULL,
  used_at bigint
);
CREATE INDEX refresh_tokens_session_idx ON refresh_tokens (session_id);

-- One-time codes: only a salted hash is stored.
CREATE TABLE otp_codes (
  id bigserial PRIMARY KEY,
  app_id text NOT NULL,
  channel text NOT NULL,
  identifier text NOT NULL,
  code_hash text NOT NULL,
  salt text NOT NULL,
  created_at bigint NOT NULL,
  expires_at bigint NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  consumed_at bigint
);
CREATE INDEX otp_codes_lookup_idx ON otp_codes (app_id, channel, identifier, created_at);

-- SIWE / SIWS nonces and account-transfer nonces: single use, expiring.
CREATE TABLE nonces (
  nonce text PRIMARY KEY,
  app_id text NOT NULL,
  kind text NOT NULL,
  subject text NOT NULL,
  data jsonb,
  created_at bigint NOT NULL,
  expires_at bigint NOT NULL,
  used_at bigint
);

-- Fixed-window counters for rate limits.
CREATE TABLE rate_limits (
  key text NOT NULL,
  window_start bigint NOT NULL,
  count integer NOT NULL,
  PRIMARY KEY (key, window_start)
);

-- Development outbox (only written in development mode).
CREATE TABLE outbox (
  id bigserial PRIMARY KEY,
  app_id text NOT NULL,
  channel text NOT NULL,
  to_addr text NOT NULL,
  code text NOT NULL,
  sent_at bigint NOT NULL
);
CREATE INDEX outbox_to_idx ON outbox (to_addr);

CREATE TABLE analytics_events (
  id bigserial PRIMARY KEY,
  app_id text NOT NULL,
  event_name text NOT NULL,
  payload jsonb,
  client_id text,
  created_at bigint NOT NULL
);

-- The ES256 signing key, shared by every process on the database.
CREATE TABLE signing_keys (
  name text PRIMARY KEY,
  kid text NOT NULL,
  private_jwk jsonb NOT NULL,
  public_jwk jsonb NOT NULL,
  created_at bigint NOT NULL
);
