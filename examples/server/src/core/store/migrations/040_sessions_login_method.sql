-- Issue 32 (the console's stats): the method a session was logged in with ('email', 'guest',
-- 'passkey' …: the linked account type of the login, or 'guest'). Sessions created before this
-- migration, and forks, have none: the stats infer theirs from the accounts as before.
ALTER TABLE sessions ADD COLUMN login_method text;
