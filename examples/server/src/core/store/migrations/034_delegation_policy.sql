-- Delegation policies and the signature audit (issue 26).
--
-- wallet_delegations.policy: what the app's backend may have the server sign (methods, chain
-- ids, contract allow-list, value caps per transaction and per rolling day, expiry), as the
-- user saw it on the consent page; the same policy is sealed with the wallet key, and the
-- server checks the sealed copy before every signature. expires_at: created_at + expires_in.
ALTER TABLE wallet_delegations ADD COLUMN policy jsonb;
ALTER TABLE wallet_delegations ADD COLUMN expires_at bigint;

-- Every delegated signature request that named a wallet of one of the app's users, allowed or
-- refused: who, which wallet, what (method, SHA-256 of the canonical params, chain id, to,
-- value in wei/lamports), from where (the requester's IP), when, and why it was refused.
-- Allowed rows are also the per-day value counter.
CREATE TABLE wallet_delegation_audit (
  id bigserial PRIMARY KEY,
  app_id text NOT NULL,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  chain_type text NOT NULL,
  address text NOT NULL,
  method text NOT NULL,
  payload_sha256 text NOT NULL,
  chain_id bigint,
  to_address text,
  value numeric,
  requester_ip text,
  allowed boolean NOT NULL,
  reason text,
  created_at bigint NOT NULL
);
CREATE INDEX wallet_delegation_audit_user_idx ON wallet_delegation_audit (app_id, user_id, created_at DESC);
CREATE INDEX wallet_delegation_audit_wallet_idx ON wallet_delegation_audit (app_id, chain_type, address, created_at);
