-- Passkeys (WebAuthn): the public key and sign counter of each registered credential.
-- The linked account (accounts: type 'passkey', identifier = credential id) is the owner:
-- unlinking it, or deleting its user, removes the credential in the same transaction.
-- The check is deferred so one transaction may write the credential before its account.
CREATE TABLE passkey_credentials (
  app_id text NOT NULL,
  type text NOT NULL DEFAULT 'passkey' CHECK (type = 'passkey'),
  credential_id text NOT NULL,
  public_key text NOT NULL,
  counter bigint NOT NULL DEFAULT 0,
  transports jsonb,
  aaguid text,
  created_at bigint NOT NULL,
  PRIMARY KEY (app_id, credential_id),
  FOREIGN KEY (app_id, type, credential_id) REFERENCES accounts (app_id, type, identifier)
    ON DELETE CASCADE ON UPDATE CASCADE DEFERRABLE INITIALLY DEFERRED
);
