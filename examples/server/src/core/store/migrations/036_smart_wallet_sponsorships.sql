-- Smart wallets' self-hosted paymaster (issue 29): one row per user operation the server signed
-- a sponsorship for, keyed by what the EntryPoint makes single-use (chain, sender, nonce as a
-- decimal string). A second request for the same operation (new gas values) re-signs without
-- counting twice; the per-user daily limit counts rows of the last 24 hours (seconds).
CREATE TABLE smart_wallet_sponsorships (
  app_id text NOT NULL,
  chain_id bigint NOT NULL,
  sender text NOT NULL,
  nonce text NOT NULL,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  valid_until bigint NOT NULL,
  created_at bigint NOT NULL,
  PRIMARY KEY (app_id, chain_id, sender, nonce)
);
CREATE INDEX smart_wallet_sponsorships_user_idx ON smart_wallet_sponsorships (app_id, user_id, created_at);
