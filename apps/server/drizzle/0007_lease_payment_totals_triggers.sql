-- The sum of the completed payments of each lease (lease_payment_totals), kept by statement-level
-- triggers with transition tables: one INSERT ... ON CONFLICT per statement, not per row, in the
-- order of the keys (no deadlock between two statements). The triggers are ENABLE ALWAYS: they run
-- in a bulk load under session_replication_role = replica too (the benchmark's dataset).
CREATE OR REPLACE FUNCTION lease_payment_totals_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO lease_payment_totals AS t (company_id, occupancy_id, paid)
    SELECT company_id, occupancy_id, sum(amount_paid) FROM new_rows WHERE status = 'completed'
     GROUP BY company_id, occupancy_id ORDER BY company_id, occupancy_id
  ON CONFLICT (company_id, occupancy_id) DO UPDATE SET paid = t.paid + excluded.paid, updated_at = now();
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION lease_payment_totals_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO lease_payment_totals AS t (company_id, occupancy_id, paid)
    SELECT company_id, occupancy_id, -sum(amount_paid) FROM old_rows WHERE status = 'completed'
     GROUP BY company_id, occupancy_id ORDER BY company_id, occupancy_id
  ON CONFLICT (company_id, occupancy_id) DO UPDATE SET paid = t.paid + excluded.paid, updated_at = now();
  RETURN NULL;
END $$;
--> statement-breakpoint
-- An update counts when it changes a completed payment's amount or lease, or a payment's status.
CREATE OR REPLACE FUNCTION lease_payment_totals_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO lease_payment_totals AS t (company_id, occupancy_id, paid)
    SELECT company_id, occupancy_id, sum(d) FROM (
      SELECT company_id, occupancy_id, amount_paid AS d FROM new_rows WHERE status = 'completed'
      UNION ALL
      SELECT company_id, occupancy_id, -amount_paid FROM old_rows WHERE status = 'completed'
    ) m GROUP BY company_id, occupancy_id HAVING sum(d) <> 0 ORDER BY company_id, occupancy_id
  ON CONFLICT (company_id, occupancy_id) DO UPDATE SET paid = t.paid + excluded.paid, updated_at = now();
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION lease_payment_totals_clear() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM lease_payment_totals;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Sums every lease again from the payments (after a load with the triggers off, or to check them).
CREATE OR REPLACE FUNCTION lease_payment_totals_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  LOCK TABLE payments IN SHARE MODE;
  DELETE FROM lease_payment_totals;
  INSERT INTO lease_payment_totals (company_id, occupancy_id, paid)
    SELECT company_id, occupancy_id, sum(amount_paid) FROM payments WHERE status = 'completed'
     GROUP BY company_id, occupancy_id;
END $$;
--> statement-breakpoint
CREATE TRIGGER payments_lease_totals_insert AFTER INSERT ON payments REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION lease_payment_totals_insert();
--> statement-breakpoint
CREATE TRIGGER payments_lease_totals_delete AFTER DELETE ON payments REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION lease_payment_totals_delete();
--> statement-breakpoint
CREATE TRIGGER payments_lease_totals_update AFTER UPDATE ON payments REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION lease_payment_totals_update();
--> statement-breakpoint
CREATE TRIGGER payments_lease_totals_truncate AFTER TRUNCATE ON payments FOR EACH STATEMENT EXECUTE FUNCTION lease_payment_totals_clear();
--> statement-breakpoint
ALTER TABLE payments ENABLE ALWAYS TRIGGER payments_lease_totals_insert;
--> statement-breakpoint
ALTER TABLE payments ENABLE ALWAYS TRIGGER payments_lease_totals_delete;
--> statement-breakpoint
ALTER TABLE payments ENABLE ALWAYS TRIGGER payments_lease_totals_update;
--> statement-breakpoint
ALTER TABLE payments ENABLE ALWAYS TRIGGER payments_lease_totals_truncate;
--> statement-breakpoint
-- the payments already recorded
SELECT lease_payment_totals_rebuild();
