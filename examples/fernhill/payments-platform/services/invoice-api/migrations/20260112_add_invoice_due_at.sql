-- 2026-01-12: due dates per invoice (net terms for B2B merchants), epic: smart dunning.
-- Expand step only: nullable column, no default rewrite, safe while v2.5 pods still run.
-- The contract step (NOT NULL) ships in 20260209_due_at_not_null.sql after the backfill.
ALTER TABLE invoices ADD COLUMN due_at timestamptz NULL;

-- Built concurrently so finalisation never waits on the lock.
CREATE INDEX CONCURRENTLY IF NOT EXISTS invoices_due_at_open_idx
  ON invoices (merchant_account_id, due_at)
  WHERE status = 'open';
