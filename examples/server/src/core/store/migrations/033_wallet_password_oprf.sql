-- Password recovery not guessable offline (issue 26): the server's half of the OPRF (RFC 9497,
-- ristretto255-SHA512) that keys a `user-passcode` recovery share.
--
-- One row per HD root (entropy_id lowercased): its OPRF key, sealed with the recovery key (a
-- JWE naming its key id; never PORTICO_SECRET), the owner (the user whose token first asked),
-- and the guess counter: evaluations since the last reported success (an owner signature by
-- the root's index-0 key), a lock-out time, and the nonce the next success report signs.
CREATE TABLE wallet_password_oprf (
  app_id text NOT NULL,
  entropy_id text NOT NULL,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  oprf_key text NOT NULL,
  evaluations integer NOT NULL DEFAULT 0,
  locked_until bigint,
  success_nonce text,
  success_nonce_expires_at bigint,
  last_evaluated_at bigint,
  last_success_at bigint,
  created_at bigint NOT NULL,
  PRIMARY KEY (app_id, entropy_id)
);
