-- Exact row counts per company (row_counts), kept by statement-level triggers with transition tables:
-- one INSERT ... ON CONFLICT per statement, not per row. Unfiltered lists read X-Total-Count here.
CREATE OR REPLACE FUNCTION row_counts_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO row_counts AS r (company_id, table_name, n)
    SELECT company_id, TG_TABLE_NAME, count(*) FROM new_rows GROUP BY company_id ORDER BY company_id
  ON CONFLICT (company_id, table_name) DO UPDATE SET n = r.n + excluded.n, updated_at = now();
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION row_counts_remove() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE row_counts r SET n = r.n - d.n, updated_at = now()
    FROM (SELECT company_id, count(*) AS n FROM old_rows GROUP BY company_id) d
   WHERE r.company_id = d.company_id AND r.table_name = TG_TABLE_NAME;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- An UPDATE changes a count only when it moves rows to another company: touch row_counts only then.
CREATE OR REPLACE FUNCTION row_counts_move() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO row_counts AS r (company_id, table_name, n)
    SELECT company_id, TG_TABLE_NAME, sum(d) FROM (
      SELECT company_id, 1 AS d FROM new_rows UNION ALL SELECT company_id, -1 FROM old_rows
    ) m GROUP BY company_id HAVING sum(d) <> 0 ORDER BY company_id
  ON CONFLICT (company_id, table_name) DO UPDATE SET n = r.n + excluded.n, updated_at = now();
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION row_counts_clear() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM row_counts WHERE table_name = TG_TABLE_NAME;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Recounts every table (after a bulk load with triggers off, e.g. session_replication_role = replica).
CREATE OR REPLACE FUNCTION row_counts_rebuild() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['units', 'tenants', 'occupancy', 'payments', 'vendors', 'maintenance_requests', 'expenses', 'employees', 'commission_wages'] LOOP
    EXECUTE format('LOCK TABLE %I IN SHARE MODE', t);
    DELETE FROM row_counts WHERE table_name = t;
    EXECUTE format('INSERT INTO row_counts (company_id, table_name, n) SELECT company_id, %L, count(*) FROM %I GROUP BY company_id', t, t);
  END LOOP;
END $$;
--> statement-breakpoint
CREATE TRIGGER units_row_counts_insert AFTER INSERT ON units REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION row_counts_add();
--> statement-breakpoint
CREATE TRIGGER units_row_counts_delete AFTER DELETE ON units REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION row_counts_remove();
--> statement-breakpoint
CREATE TRIGGER units_row_counts_update AFTER UPDATE ON units REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION row_counts_move();
--> statement-breakpoint
CREATE TRIGGER units_row_counts_truncate AFTER TRUNCATE ON units FOR EACH STATEMENT EXECUTE FUNCTION row_counts_clear();
--> statement-breakpoint
CREATE TRIGGER tenants_row_counts_insert AFTER INSERT ON tenants REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION row_counts_add();
--> statement-breakpoint
CREATE TRIGGER tenants_row_counts_delete AFTER DELETE ON tenants REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION row_counts_remove();
--> statement-breakpoint
CREATE TRIGGER tenants_row_counts_update AFTER UPDATE ON tenants REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION row_counts_move();
--> statement-breakpoint
CREATE TRIGGER tenants_row_counts_truncate AFTER TRUNCATE ON tenants FOR EACH STATEMENT EXECUTE FUNCTION row_counts_clear();
--> statement-breakpoint
CREATE TRIGGER occupancy_row_counts_insert AFTER INSERT ON occupancy REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION row_counts_add();
--> statement-breakpoint
CREATE TRIGGER occupancy_row_counts_delete AFTER DELETE ON occupancy REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION row_counts_remove();
--> statement-breakpoint
CREATE TRIGGER occupancy_row_counts_update AFTER UPDATE ON occupancy REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION row_counts_move();
--> statement-breakpoint
CREATE TRIGGER occupancy_row_counts_truncate AFTER TRUNCATE ON occupancy FOR EACH STATEMENT EXECUTE FUNCTION row_counts_clear();
--> statement-breakpoint
CREATE TRIGGER payments_row_counts_insert AFTER INSERT ON payments REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION row_counts_add();
--> statement-breakpoint
CREATE TRIGGER payments_row_counts_delete AFTER DELETE ON payments REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION row_counts_remove();
--> statement-breakpoint
CREATE TRIGGER payments_row_counts_update AFTER UPDATE ON payments REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION row_counts_move();
--> statement-breakpoint
CREATE TRIGGER payments_row_counts_truncate AFTER TRUNCATE ON payments FOR EACH STATEMENT EXECUTE FUNCTION row_counts_clear();
--> statement-breakpoint
CREATE TRIGGER vendors_row_counts_insert AFTER INSERT ON vendors REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION row_counts_add();
--> statement-breakpoint
CREATE TRIGGER vendors_row_counts_delete AFTER DELETE ON vendors REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION row_counts_remove();
--> statement-breakpoint
CREATE TRIGGER vendors_row_counts_update AFTER UPDATE ON vendors REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION row_counts_move();
--> statement-breakpoint
CREATE TRIGGER vendors_row_counts_truncate AFTER TRUNCATE ON vendors FOR EACH STATEMENT EXECUTE FUNCTION row_counts_clear();
--> statement-breakpoint
CREATE TRIGGER maintenance_requests_row_counts_insert AFTER INSERT ON maintenance_requests REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION row_counts_add();
--> statement-breakpoint
CREATE TRIGGER maintenance_requests_row_counts_delete AFTER DELETE ON maintenance_requests REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION row_counts_remove();
--> statement-breakpoint
CREATE TRIGGER maintenance_requests_row_counts_update AFTER UPDATE ON maintenance_requests REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION row_counts_move();
--> statement-breakpoint
CREATE TRIGGER maintenance_requests_row_counts_truncate AFTER TRUNCATE ON maintenance_requests FOR EACH STATEMENT EXECUTE FUNCTION row_counts_clear();
--> statement-breakpoint
CREATE TRIGGER expenses_row_counts_insert AFTER INSERT ON expenses REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION row_counts_add();
--> statement-breakpoint
CREATE TRIGGER expenses_row_counts_delete AFTER DELETE ON expenses REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION row_counts_remove();
--> statement-breakpoint
CREATE TRIGGER expenses_row_counts_update AFTER UPDATE ON expenses REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION row_counts_move();
--> statement-breakpoint
CREATE TRIGGER expenses_row_counts_truncate AFTER TRUNCATE ON expenses FOR EACH STATEMENT EXECUTE FUNCTION row_counts_clear();
--> statement-breakpoint
CREATE TRIGGER employees_row_counts_insert AFTER INSERT ON employees REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION row_counts_add();
--> statement-breakpoint
CREATE TRIGGER employees_row_counts_delete AFTER DELETE ON employees REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION row_counts_remove();
--> statement-breakpoint
CREATE TRIGGER employees_row_counts_update AFTER UPDATE ON employees REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION row_counts_move();
--> statement-breakpoint
CREATE TRIGGER employees_row_counts_truncate AFTER TRUNCATE ON employees FOR EACH STATEMENT EXECUTE FUNCTION row_counts_clear();
--> statement-breakpoint
CREATE TRIGGER commission_wages_row_counts_insert AFTER INSERT ON commission_wages REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION row_counts_add();
--> statement-breakpoint
CREATE TRIGGER commission_wages_row_counts_delete AFTER DELETE ON commission_wages REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION row_counts_remove();
--> statement-breakpoint
CREATE TRIGGER commission_wages_row_counts_update AFTER UPDATE ON commission_wages REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION row_counts_move();
--> statement-breakpoint
CREATE TRIGGER commission_wages_row_counts_truncate AFTER TRUNCATE ON commission_wages FOR EACH STATEMENT EXECUTE FUNCTION row_counts_clear();
--> statement-breakpoint
SELECT row_counts_rebuild();
