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
