-- Wallet custody (issue 26): no single stolen credential yields two shares.
--
-- wallet_devices: the wallet frames (one non-extractable P-256 key each, kept in the frame's
-- own storage) that may receive the auth share of the user's wallets. device_id is the RFC 7638
-- thumbprint of the public JWK. session_only: the frame could not persist its key (storage
-- blocked or partitioned); the device lives for one page session.
CREATE TABLE wallet_devices (
  app_id text NOT NULL,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  device_id text NOT NULL,
  public_jwk jsonb NOT NULL,
  label text,
  session_only boolean NOT NULL DEFAULT false,
  added_by text NOT NULL,
  created_at bigint NOT NULL,
  last_used_at bigint NOT NULL,
  revoked_at bigint,
  PRIMARY KEY (app_id, user_id, device_id)
);

-- The device a session is bound to (its first wallet-frame use); another device on the same
-- session is a new device and needs the step-up.
ALTER TABLE sessions ADD COLUMN device_id text;

-- The session that created a root (a root created by a session whose binding is contested is
-- discarded).
ALTER TABLE embedded_wallet_roots ADD COLUMN created_session_id text;

-- Single-use server nonces for device proofs (bound to the session that asked).
CREATE TABLE wallet_proof_nonces (
  nonce text PRIMARY KEY,
  app_id text NOT NULL,
  session_id text NOT NULL,
  created_at bigint NOT NULL,
  expires_at bigint NOT NULL,
  used_at bigint
);
CREATE INDEX wallet_proof_nonces_expiry_idx ON wallet_proof_nonces (expires_at);

-- A fresh out-of-band verification (code to the verified e-mail or phone, fresh MFA) that the
-- access token does not carry: it lets one device, on one session, be registered for one root.
CREATE TABLE wallet_step_up_grants (
  id text PRIMARY KEY,
  app_id text NOT NULL,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  session_id text NOT NULL,
  device_id text NOT NULL,
  entropy_id text NOT NULL,
  method text NOT NULL,
  created_at bigint NOT NULL,
  expires_at bigint NOT NULL,
  used_at bigint
);
CREATE INDEX wallet_step_up_grants_user_idx ON wallet_step_up_grants (app_id, user_id);

-- The shares a change replaced, kept for a grace period so a mistake is recoverable.
CREATE TABLE embedded_wallet_share_history (
  id bigserial PRIMARY KEY,
  app_id text NOT NULL,
  entropy_id text NOT NULL,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  auth_share text NOT NULL,
  recovery_method text NOT NULL,
  recovery_share text NOT NULL,
  recovery_meta jsonb,
  replaced_at bigint NOT NULL,
  expires_at bigint NOT NULL
);
CREATE INDEX embedded_wallet_share_history_root_idx ON embedded_wallet_share_history (app_id, entropy_id);
