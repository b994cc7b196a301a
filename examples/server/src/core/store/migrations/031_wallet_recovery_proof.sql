-- Wallet custody (issue 26, H1a): the public half of a key the frame derives from the recovery
-- share (HKDF -> ed25519). A new device that opened a user-owned recovery share (password,
-- cloud file) proves it holds the share with a signature by this key, and only then gets the
-- auth share; the server never sees the share. NULL for roots created before (no proof possible:
-- such a device steps up as for privy).
ALTER TABLE embedded_wallet_roots ADD COLUMN recovery_proof_key text;
ALTER TABLE embedded_wallet_share_history ADD COLUMN recovery_proof_key text;
