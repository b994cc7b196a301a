-- Embedded wallets (issue 14): the server's part of each HD root. The public wallet records
-- are linked accounts of type 'wallet' (wallet_client_type 'privy'); this table keeps what
-- the wallet frame needs from the server, per root:
--   auth_share      the auth share, sealed at rest with a key derived from PORTICO_SECRET;
--   recovery_share  privy: the recovery share sealed with the recovery key (PORTICO_RECOVERY_KEY,
--                   never in the database); user-passcode / google-drive / icloud: the share
--                   as the frame sealed it (the server cannot open it).
-- One share alone rebuilds nothing: the database by itself cannot reconstruct a key.
CREATE TABLE embedded_wallet_roots (
  app_id text NOT NULL,
  entropy_id text NOT NULL,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  entropy_id_verifier text NOT NULL,
  auth_share text NOT NULL,
  recovery_method text NOT NULL,
  recovery_share text NOT NULL,
  recovery_meta jsonb,
  created_at bigint NOT NULL,
  updated_at bigint NOT NULL,
  PRIMARY KEY (app_id, entropy_id)
);
CREATE INDEX embedded_wallet_roots_user_idx ON embedded_wallet_roots (user_id);
