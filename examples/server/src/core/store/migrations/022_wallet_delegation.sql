-- Delegated actions ('Enable offline access'). While a wallet is delegated, this row holds
-- the consent (who, when, from which session) and that one wallet's private key as the
-- wallet frame sealed it to the server (a JWE, ECDH-ES P-256 + A256GCM, to a key derived
-- from PORTICO_SECRET, which is outside the database). Revoking deletes the row in the same
-- transaction that clears the account's `delegated` flag: afterwards the server holds
-- nothing that can sign for the wallet. `address_key` is the address as looked up
-- (lower-case for Ethereum, base58 as is for Solana).
CREATE TABLE wallet_delegations (
  app_id text NOT NULL,
  chain_type text NOT NULL,
  address_key text NOT NULL,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  address text NOT NULL,
  wallet_index integer,
  sealed_key text NOT NULL,
  consent_session_id text NOT NULL,
  created_at bigint NOT NULL,
  last_used_at bigint,
  PRIMARY KEY (app_id, chain_type, address_key)
);
CREATE INDEX wallet_delegations_user_idx ON wallet_delegations (user_id);
