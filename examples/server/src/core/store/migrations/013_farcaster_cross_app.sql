-- Sign In With Farcaster: the server runs the channel itself (no outside relay).
-- The channel token is stored only as its SHA-256; a channel completes once and is used once.
CREATE TABLE farcaster_channels (
  token_hash text PRIMARY KEY,
  app_id text NOT NULL,
  nonce text NOT NULL,
  domain text NOT NULL,
  siwe_uri text NOT NULL,
  state text NOT NULL DEFAULT 'pending',
  message text,
  signature text,
  fid bigint,
  profile jsonb,
  created_at bigint NOT NULL,
  expires_at bigint NOT NULL,
  used_at bigint
);
CREATE INDEX farcaster_channels_expiry_idx ON farcaster_channels (expires_at);

-- Cross-app login: a one-time code the provider app issues for one of its users to one
-- requester app (PKCE-bound, 2 minutes, single use). Stored only as its SHA-256.
CREATE TABLE cross_app_codes (
  code_hash text PRIMARY KEY,
  provider_app_id text NOT NULL,
  requester_app_id text NOT NULL,
  user_id text NOT NULL,
  code_challenge text NOT NULL,
  origin text NOT NULL,
  created_at bigint NOT NULL,
  expires_at bigint NOT NULL,
  used_at bigint
);
CREATE INDEX cross_app_codes_expiry_idx ON cross_app_codes (expires_at);
