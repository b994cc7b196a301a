-- Multi-factor verification (issue 16): the methods a user has enrolled, enrolments in
-- progress, and the sessions that verified recently.
--
-- mfa_methods: one row per (user, type). totp: data.secret is the TOTP secret sealed with a
-- key derived from PORTICO_SECRET (JWE, never stored in clear); last_step is the last time
-- step accepted, so a code is single use. sms: data.number (E.164). passkey: the enrolled
-- credentials are the user's passkey accounts with data.enrolled_in_mfa = true.
CREATE TABLE mfa_methods (
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  type text NOT NULL CHECK (type IN ('totp', 'sms', 'passkey')),
  data jsonb NOT NULL DEFAULT '{}',
  last_step bigint,
  verified_at bigint NOT NULL,
  PRIMARY KEY (user_id, type)
);

-- An enrolment waiting for its first code (a TOTP secret, sealed; an SMS number).
CREATE TABLE mfa_pending (
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  type text NOT NULL CHECK (type IN ('totp', 'sms')),
  data jsonb NOT NULL DEFAULT '{}',
  created_at bigint NOT NULL,
  expires_at bigint NOT NULL,
  PRIMARY KEY (user_id, type)
);

-- The last successful verification of a session (the gate asks for one within its window).
CREATE TABLE mfa_verifications (
  session_id text PRIMARY KEY REFERENCES sessions (id) ON DELETE CASCADE,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  method text NOT NULL,
  verified_at bigint NOT NULL
);

-- Verification attempts per user, counted server-side in one atomic upsert: a window opens
-- at the first attempt (at most 4 in it) and a day (at most 40 in it).
CREATE TABLE mfa_attempts (
  user_id text PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  window_start bigint NOT NULL,
  count integer NOT NULL,
  day_start bigint NOT NULL,
  day_count integer NOT NULL
);
