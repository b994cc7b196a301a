-- Imported wallets (issue 14, spec part 2 section 3: 'a root wallet is imported or has index 0'):
-- an imported private key is a root of its own, its shares split as a created root's entropy.
-- The flag keeps it apart from the user's one created HD root (one per user) and from
-- wallets:add (an imported key has no siblings).
ALTER TABLE embedded_wallet_roots ADD COLUMN imported boolean NOT NULL DEFAULT false;
