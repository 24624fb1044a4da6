-- Source kinds are the contract's SourceKind, each served by a dialect of src/dialects; the API checks
-- a new source's kind against the contract, so a new engine needs no change to this table.
ALTER TABLE sources DROP CONSTRAINT IF EXISTS sources_kind_check;
