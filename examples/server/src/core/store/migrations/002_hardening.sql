-- Issue 19: signing key encrypted at rest, keyed code hashes per requester, refresh reuse interval.

-- The private signing key is stored only as a JWE sealed with a key derived from PORTICO_SECRET.
ALTER TABLE signing_keys ALTER COLUMN private_jwk DROP NOT NULL;
ALTER TABLE signing_keys ADD COLUMN private_jwe text;

-- Codes: HMAC keyed with the server secret (no per-row salt); who asked for the code.
ALTER TABLE otp_codes ALTER COLUMN salt DROP NOT NULL;
ALTER TABLE otp_codes ADD COLUMN requester text;
CREATE INDEX otp_codes_active_idx ON otp_codes (app_id, channel, identifier) WHERE consumed_at IS NULL;

-- A rotated refresh token remembers its successor (sealed) for the reuse interval.
ALTER TABLE refresh_tokens ADD COLUMN successor_hash text;
ALTER TABLE refresh_tokens ADD COLUMN successor_sealed text;

CREATE INDEX nonces_expiry_idx ON nonces (expires_at);
CREATE INDEX rate_limits_window_idx ON rate_limits (window_start);
