-- Farcaster signers (issue 30): one row per Ed25519 key a user's wallet frame asked the
-- Farcaster app to approve. The key (hex, 32 bytes) belongs to one user of one app; `token` is
-- the Farcaster client API's signed key request token (server to server only, never sent to
-- the browser); `state` mirrors the request: pending, approved (user_fid known), revoked,
-- expired. `deadline` is the EIP-712 deadline the app FID signed (seconds).
CREATE TABLE farcaster_signers (
  app_id text NOT NULL,
  public_key text NOT NULL,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  fid bigint NOT NULL,
  request_fid bigint NOT NULL,
  token text NOT NULL,
  deeplink_url text NOT NULL,
  state text NOT NULL DEFAULT 'pending',
  user_fid bigint,
  deadline bigint NOT NULL,
  created_at bigint NOT NULL,
  updated_at bigint NOT NULL,
  PRIMARY KEY (app_id, public_key)
);
CREATE INDEX farcaster_signers_user_idx ON farcaster_signers (user_id);
