-- Issue 12: OAuth flows. One row per /oauth/init: the state the server issued (hashed), bound to
-- the app, the provider, the client's PKCE challenge and where the callback sends the browser.
-- Single use (used_at), 10 minutes.
CREATE TABLE oauth_states (
  state_hash text PRIMARY KEY,
  app_id text NOT NULL,
  provider text NOT NULL,
  code_challenge text NOT NULL,
  redirect_to text NOT NULL,
  redirect_uri text NOT NULL,
  data jsonb,
  created_at bigint NOT NULL,
  expires_at bigint NOT NULL,
  used_at bigint
);
CREATE INDEX oauth_states_expiry_idx ON oauth_states (expires_at);
