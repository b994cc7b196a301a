-- Issue 14 (recovery): the cloud-backup OAuth flows of the wallet's user-owned recovery. One row
-- per /recovery/oauth/init: the state the server issued (hashed), bound to the app, the user,
-- the provider ('google-drive'), the client's PKCE challenge and where the callback sends the
-- browser. Single use (used_at), 10 minutes. Nothing secret is stored: the drive's access
-- token goes back to the client and is never kept here.
CREATE TABLE recovery_oauth_states (
  state_hash text PRIMARY KEY,
  app_id text NOT NULL,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  provider text NOT NULL CHECK (provider IN ('google-drive')),
  code_challenge text NOT NULL,
  redirect_to text NOT NULL,
  redirect_uri text NOT NULL,
  created_at bigint NOT NULL,
  expires_at bigint NOT NULL,
  used_at bigint
);
CREATE INDEX recovery_oauth_states_expiry_idx ON recovery_oauth_states (expires_at);
