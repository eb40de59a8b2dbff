-- Look-alike names (issue 50): a name is refused when its folded form — lower case, with
-- i, l and 1 as one letter and o and 0 as another — is an existing account's. The fold is
-- an expression both SQLite and PostgreSQL index; `store/accounts.rs` `create_user` writes
-- the same expression.
CREATE INDEX users_by_fold ON users (replace(replace(replace(lower(name), 'i', 'l'), '1', 'l'), '0', 'o'))
