-- Per table, one statement-level trigger function keeps every total of a statement's rows exact:
-- row_counts (rows per company; replacing the generic triggers of 0004 on these tables), key_counts
-- (rows per referenced key: payments per tenant...) and monthly_totals (money per month). One INSERT
-- ... ON CONFLICT per total and statement, in the order of the keys (no deadlock between two
-- statements); an UPDATE touches only the totals it changes.

CREATE OR REPLACE FUNCTION payments_totals() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO row_counts AS r (company_id, table_name, n)
      SELECT company_id, 'payments', count(*) FROM new_rows GROUP BY company_id ORDER BY company_id
    ON CONFLICT (company_id, table_name) DO UPDATE SET n = r.n + excluded.n, updated_at = now();
    INSERT INTO key_counts AS k (company_id, table_name, key_name, key_value, n)
      SELECT company_id, 'payments', key_name, key_value, count(*) FROM new_rows, LATERAL (VALUES ('tenant_id', tenant_id), ('unit_id', unit_id)) v(key_name, key_value)
       WHERE key_value IS NOT NULL GROUP BY company_id, key_name, key_value ORDER BY 1, 3, 4
    ON CONFLICT (company_id, table_name, key_name, key_value) DO UPDATE SET n = k.n + excluded.n, updated_at = now();
    INSERT INTO monthly_totals AS m (company_id, source, month, status, key, n, amount)
      SELECT company_id, 'payments', date_trunc('month', payment_date::timestamp)::date, status, COALESCE(payment_method, ''), count(*), sum(amount_paid)
        FROM new_rows GROUP BY 1, 3, 4, 5 ORDER BY 1, 3, 4, 5
    ON CONFLICT (company_id, source, month, status, key)
      DO UPDATE SET n = m.n + excluded.n, amount = m.amount + excluded.amount, updated_at = now();
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO row_counts AS r (company_id, table_name, n)
      SELECT company_id, 'payments', -count(*) FROM old_rows GROUP BY company_id ORDER BY company_id
    ON CONFLICT (company_id, table_name) DO UPDATE SET n = r.n + excluded.n, updated_at = now();
    INSERT INTO key_counts AS k (company_id, table_name, key_name, key_value, n)
      SELECT company_id, 'payments', key_name, key_value, -count(*) FROM old_rows, LATERAL (VALUES ('tenant_id', tenant_id), ('unit_id', unit_id)) v(key_name, key_value)
       WHERE key_value IS NOT NULL GROUP BY company_id, key_name, key_value ORDER BY 1, 3, 4
    ON CONFLICT (company_id, table_name, key_name, key_value) DO UPDATE SET n = k.n + excluded.n, updated_at = now();
    INSERT INTO monthly_totals AS m (company_id, source, month, status, key, n, amount)
      SELECT company_id, 'payments', date_trunc('month', payment_date::timestamp)::date, status, COALESCE(payment_method, ''), -count(*), -sum(amount_paid)
        FROM old_rows GROUP BY 1, 3, 4, 5 ORDER BY 1, 3, 4, 5
    ON CONFLICT (company_id, source, month, status, key)
      DO UPDATE SET n = m.n + excluded.n, amount = m.amount + excluded.amount, updated_at = now();
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO row_counts AS r (company_id, table_name, n)
      SELECT company_id, 'payments', sum(d) FROM (
        SELECT company_id, 1 AS d FROM new_rows UNION ALL SELECT company_id, -1 FROM old_rows
      ) c GROUP BY company_id HAVING sum(d) <> 0 ORDER BY company_id
    ON CONFLICT (company_id, table_name) DO UPDATE SET n = r.n + excluded.n, updated_at = now();
    INSERT INTO key_counts AS k (company_id, table_name, key_name, key_value, n)
      SELECT company_id, 'payments', key_name, key_value, sum(d) FROM (
        SELECT company_id, key_name, key_value, 1 AS d FROM new_rows, LATERAL (VALUES ('tenant_id', tenant_id), ('unit_id', unit_id)) v(key_name, key_value)
        UNION ALL
        SELECT company_id, key_name, key_value, -1 FROM old_rows, LATERAL (VALUES ('tenant_id', tenant_id), ('unit_id', unit_id)) v(key_name, key_value)
      ) c WHERE key_value IS NOT NULL GROUP BY company_id, key_name, key_value HAVING sum(d) <> 0 ORDER BY 1, 3, 4
    ON CONFLICT (company_id, table_name, key_name, key_value) DO UPDATE SET n = k.n + excluded.n, updated_at = now();
    INSERT INTO monthly_totals AS m (company_id, source, month, status, key, n, amount)
      SELECT company_id, 'payments', month, status, key, sum(d), sum(a) FROM (
        SELECT company_id, date_trunc('month', payment_date::timestamp)::date AS month, status AS status, COALESCE(payment_method, '') AS key,
               1 AS d, amount_paid AS a FROM new_rows
        UNION ALL
        SELECT company_id, date_trunc('month', payment_date::timestamp)::date, status, COALESCE(payment_method, ''), -1, -amount_paid FROM old_rows
      ) c GROUP BY company_id, month, status, key HAVING sum(d) <> 0 OR sum(a) <> 0 ORDER BY 1, 3, 4, 5
    ON CONFLICT (company_id, source, month, status, key)
      DO UPDATE SET n = m.n + excluded.n, amount = m.amount + excluded.amount, updated_at = now();
  ELSE -- TRUNCATE
    DELETE FROM row_counts WHERE table_name = 'payments';
    DELETE FROM key_counts WHERE table_name = 'payments';
    DELETE FROM monthly_totals WHERE source = 'payments';
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS payments_row_counts_insert ON payments;
--> statement-breakpoint
DROP TRIGGER IF EXISTS payments_row_counts_delete ON payments;
--> statement-breakpoint
DROP TRIGGER IF EXISTS payments_row_counts_update ON payments;
--> statement-breakpoint
DROP TRIGGER IF EXISTS payments_row_counts_truncate ON payments;
--> statement-breakpoint
CREATE TRIGGER payments_totals_insert AFTER INSERT ON payments REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION payments_totals();
--> statement-breakpoint
CREATE TRIGGER payments_totals_delete AFTER DELETE ON payments REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION payments_totals();
--> statement-breakpoint
CREATE TRIGGER payments_totals_update AFTER UPDATE ON payments REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION payments_totals();
--> statement-breakpoint
CREATE TRIGGER payments_totals_truncate AFTER TRUNCATE ON payments FOR EACH STATEMENT EXECUTE FUNCTION payments_totals();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION occupancy_totals() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO row_counts AS r (company_id, table_name, n)
      SELECT company_id, 'occupancy', count(*) FROM new_rows GROUP BY company_id ORDER BY company_id
    ON CONFLICT (company_id, table_name) DO UPDATE SET n = r.n + excluded.n, updated_at = now();
    INSERT INTO key_counts AS k (company_id, table_name, key_name, key_value, n)
      SELECT company_id, 'occupancy', key_name, key_value, count(*) FROM new_rows, LATERAL (VALUES ('tenant_id', tenant_id), ('unit_id', unit_id)) v(key_name, key_value)
       WHERE key_value IS NOT NULL GROUP BY company_id, key_name, key_value ORDER BY 1, 3, 4
    ON CONFLICT (company_id, table_name, key_name, key_value) DO UPDATE SET n = k.n + excluded.n, updated_at = now();
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO row_counts AS r (company_id, table_name, n)
      SELECT company_id, 'occupancy', -count(*) FROM old_rows GROUP BY company_id ORDER BY company_id
    ON CONFLICT (company_id, table_name) DO UPDATE SET n = r.n + excluded.n, updated_at = now();
    INSERT INTO key_counts AS k (company_id, table_name, key_name, key_value, n)
      SELECT company_id, 'occupancy', key_name, key_value, -count(*) FROM old_rows, LATERAL (VALUES ('tenant_id', tenant_id), ('unit_id', unit_id)) v(key_name, key_value)
       WHERE key_value IS NOT NULL GROUP BY company_id, key_name, key_value ORDER BY 1, 3, 4
    ON CONFLICT (company_id, table_name, key_name, key_value) DO UPDATE SET n = k.n + excluded.n, updated_at = now();
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO row_counts AS r (company_id, table_name, n)
      SELECT company_id, 'occupancy', sum(d) FROM (
        SELECT company_id, 1 AS d FROM new_rows UNION ALL SELECT company_id, -1 FROM old_rows
      ) c GROUP BY company_id HAVING sum(d) <> 0 ORDER BY company_id
    ON CONFLICT (company_id, table_name) DO UPDATE SET n = r.n + excluded.n, updated_at = now();
    INSERT INTO key_counts AS k (company_id, table_name, key_name, key_value, n)
      SELECT company_id, 'occupancy', key_name, key_value, sum(d) FROM (
        SELECT company_id, key_name, key_value, 1 AS d FROM new_rows, LATERAL (VALUES ('tenant_id', tenant_id), ('unit_id', unit_id)) v(key_name, key_value)
        UNION ALL
        SELECT company_id, key_name, key_value, -1 FROM old_rows, LATERAL (VALUES ('tenant_id', tenant_id), ('unit_id', unit_id)) v(key_name, key_value)
      ) c WHERE key_value IS NOT NULL GROUP BY company_id, key_name, key_value HAVING sum(d) <> 0 ORDER BY 1, 3, 4
    ON CONFLICT (company_id, table_name, key_name, key_value) DO UPDATE SET n = k.n + excluded.n, updated_at = now();
  ELSE -- TRUNCATE
    DELETE FROM row_counts WHERE table_name = 'occupancy';
    DELETE FROM key_counts WHERE table_name = 'occupancy';
    DELETE FROM monthly_totals WHERE source = 'occupancy';
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS occupancy_row_counts_insert ON occupancy;
--> statement-breakpoint
DROP TRIGGER IF EXISTS occupancy_row_counts_delete ON occupancy;
--> statement-breakpoint
DROP TRIGGER IF EXISTS occupancy_row_counts_update ON occupancy;
--> statement-breakpoint
DROP TRIGGER IF EXISTS occupancy_row_counts_truncate ON occupancy;
--> statement-breakpoint
CREATE TRIGGER occupancy_totals_insert AFTER INSERT ON occupancy REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION occupancy_totals();
--> statement-breakpoint
CREATE TRIGGER occupancy_totals_delete AFTER DELETE ON occupancy REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION occupancy_totals();
--> statement-breakpoint
CREATE TRIGGER occupancy_totals_update AFTER UPDATE ON occupancy REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION occupancy_totals();
--> statement-breakpoint
CREATE TRIGGER occupancy_totals_truncate AFTER TRUNCATE ON occupancy FOR EACH STATEMENT EXECUTE FUNCTION occupancy_totals();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION expenses_totals() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO row_counts AS r (company_id, table_name, n)
      SELECT company_id, 'expenses', count(*) FROM new_rows GROUP BY company_id ORDER BY company_id
    ON CONFLICT (company_id, table_name) DO UPDATE SET n = r.n + excluded.n, updated_at = now();
    INSERT INTO key_counts AS k (company_id, table_name, key_name, key_value, n)
      SELECT company_id, 'expenses', key_name, key_value, count(*) FROM new_rows, LATERAL (VALUES ('unit_id', unit_id)) v(key_name, key_value)
       WHERE key_value IS NOT NULL GROUP BY company_id, key_name, key_value ORDER BY 1, 3, 4
    ON CONFLICT (company_id, table_name, key_name, key_value) DO UPDATE SET n = k.n + excluded.n, updated_at = now();
    INSERT INTO monthly_totals AS m (company_id, source, month, status, key, n, amount)
      SELECT company_id, 'expenses', date_trunc('month', expense_date::timestamp)::date, '', category, count(*), sum(amount)
        FROM new_rows GROUP BY 1, 3, 4, 5 ORDER BY 1, 3, 4, 5
    ON CONFLICT (company_id, source, month, status, key)
      DO UPDATE SET n = m.n + excluded.n, amount = m.amount + excluded.amount, updated_at = now();
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO row_counts AS r (company_id, table_name, n)
      SELECT company_id, 'expenses', -count(*) FROM old_rows GROUP BY company_id ORDER BY company_id
    ON CONFLICT (company_id, table_name) DO UPDATE SET n = r.n + excluded.n, updated_at = now();
    INSERT INTO key_counts AS k (company_id, table_name, key_name, key_value, n)
      SELECT company_id, 'expenses', key_name, key_value, -count(*) FROM old_rows, LATERAL (VALUES ('unit_id', unit_id)) v(key_name, key_value)
       WHERE key_value IS NOT NULL GROUP BY company_id, key_name, key_value ORDER BY 1, 3, 4
    ON CONFLICT (company_id, table_name, key_name, key_value) DO UPDATE SET n = k.n + excluded.n, updated_at = now();
    INSERT INTO monthly_totals AS m (company_id, source, month, status, key, n, amount)
      SELECT company_id, 'expenses', date_trunc('month', expense_date::timestamp)::date, '', category, -count(*), -sum(amount)
        FROM old_rows GROUP BY 1, 3, 4, 5 ORDER BY 1, 3, 4, 5
    ON CONFLICT (company_id, source, month, status, key)
      DO UPDATE SET n = m.n + excluded.n, amount = m.amount + excluded.amount, updated_at = now();
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO row_counts AS r (company_id, table_name, n)
      SELECT company_id, 'expenses', sum(d) FROM (
        SELECT company_id, 1 AS d FROM new_rows UNION ALL SELECT company_id, -1 FROM old_rows
      ) c GROUP BY company_id HAVING sum(d) <> 0 ORDER BY company_id
    ON CONFLICT (company_id, table_name) DO UPDATE SET n = r.n + excluded.n, updated_at = now();
    INSERT INTO key_counts AS k (company_id, table_name, key_name, key_value, n)
      SELECT company_id, 'expenses', key_name, key_value, sum(d) FROM (
        SELECT company_id, key_name, key_value, 1 AS d FROM new_rows, LATERAL (VALUES ('unit_id', unit_id)) v(key_name, key_value)
        UNION ALL
        SELECT company_id, key_name, key_value, -1 FROM old_rows, LATERAL (VALUES ('unit_id', unit_id)) v(key_name, key_value)
      ) c WHERE key_value IS NOT NULL GROUP BY company_id, key_name, key_value HAVING sum(d) <> 0 ORDER BY 1, 3, 4
    ON CONFLICT (company_id, table_name, key_name, key_value) DO UPDATE SET n = k.n + excluded.n, updated_at = now();
    INSERT INTO monthly_totals AS m (company_id, source, month, status, key, n, amount)
      SELECT company_id, 'expenses', month, status, key, sum(d), sum(a) FROM (
        SELECT company_id, date_trunc('month', expense_date::timestamp)::date AS month, '' AS status, category AS key,
               1 AS d, amount AS a FROM new_rows
        UNION ALL
        SELECT company_id, date_trunc('month', expense_date::timestamp)::date, '', category, -1, -amount FROM old_rows
      ) c GROUP BY company_id, month, status, key HAVING sum(d) <> 0 OR sum(a) <> 0 ORDER BY 1, 3, 4, 5
    ON CONFLICT (company_id, source, month, status, key)
      DO UPDATE SET n = m.n + excluded.n, amount = m.amount + excluded.amount, updated_at = now();
  ELSE -- TRUNCATE
    DELETE FROM row_counts WHERE table_name = 'expenses';
    DELETE FROM key_counts WHERE table_name = 'expenses';
    DELETE FROM monthly_totals WHERE source = 'expenses';
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS expenses_row_counts_insert ON expenses;
--> statement-breakpoint
DROP TRIGGER IF EXISTS expenses_row_counts_delete ON expenses;
--> statement-breakpoint
DROP TRIGGER IF EXISTS expenses_row_counts_update ON expenses;
--> statement-breakpoint
DROP TRIGGER IF EXISTS expenses_row_counts_truncate ON expenses;
--> statement-breakpoint
CREATE TRIGGER expenses_totals_insert AFTER INSERT ON expenses REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION expenses_totals();
--> statement-breakpoint
CREATE TRIGGER expenses_totals_delete AFTER DELETE ON expenses REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION expenses_totals();
--> statement-breakpoint
CREATE TRIGGER expenses_totals_update AFTER UPDATE ON expenses REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION expenses_totals();
--> statement-breakpoint
CREATE TRIGGER expenses_totals_truncate AFTER TRUNCATE ON expenses FOR EACH STATEMENT EXECUTE FUNCTION expenses_totals();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION maintenance_requests_totals() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO row_counts AS r (company_id, table_name, n)
      SELECT company_id, 'maintenance_requests', count(*) FROM new_rows GROUP BY company_id ORDER BY company_id
    ON CONFLICT (company_id, table_name) DO UPDATE SET n = r.n + excluded.n, updated_at = now();
    INSERT INTO key_counts AS k (company_id, table_name, key_name, key_value, n)
      SELECT company_id, 'maintenance_requests', key_name, key_value, count(*) FROM new_rows, LATERAL (VALUES ('unit_id', unit_id)) v(key_name, key_value)
       WHERE key_value IS NOT NULL GROUP BY company_id, key_name, key_value ORDER BY 1, 3, 4
    ON CONFLICT (company_id, table_name, key_name, key_value) DO UPDATE SET n = k.n + excluded.n, updated_at = now();
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO row_counts AS r (company_id, table_name, n)
      SELECT company_id, 'maintenance_requests', -count(*) FROM old_rows GROUP BY company_id ORDER BY company_id
    ON CONFLICT (company_id, table_name) DO UPDATE SET n = r.n + excluded.n, updated_at = now();
    INSERT INTO key_counts AS k (company_id, table_name, key_name, key_value, n)
      SELECT company_id, 'maintenance_requests', key_name, key_value, -count(*) FROM old_rows, LATERAL (VALUES ('unit_id', unit_id)) v(key_name, key_value)
       WHERE key_value IS NOT NULL GROUP BY company_id, key_name, key_value ORDER BY 1, 3, 4
    ON CONFLICT (company_id, table_name, key_name, key_value) DO UPDATE SET n = k.n + excluded.n, updated_at = now();
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO row_counts AS r (company_id, table_name, n)
      SELECT company_id, 'maintenance_requests', sum(d) FROM (
        SELECT company_id, 1 AS d FROM new_rows UNION ALL SELECT company_id, -1 FROM old_rows
      ) c GROUP BY company_id HAVING sum(d) <> 0 ORDER BY company_id
    ON CONFLICT (company_id, table_name) DO UPDATE SET n = r.n + excluded.n, updated_at = now();
    INSERT INTO key_counts AS k (company_id, table_name, key_name, key_value, n)
      SELECT company_id, 'maintenance_requests', key_name, key_value, sum(d) FROM (
        SELECT company_id, key_name, key_value, 1 AS d FROM new_rows, LATERAL (VALUES ('unit_id', unit_id)) v(key_name, key_value)
        UNION ALL
        SELECT company_id, key_name, key_value, -1 FROM old_rows, LATERAL (VALUES ('unit_id', unit_id)) v(key_name, key_value)
      ) c WHERE key_value IS NOT NULL GROUP BY company_id, key_name, key_value HAVING sum(d) <> 0 ORDER BY 1, 3, 4
    ON CONFLICT (company_id, table_name, key_name, key_value) DO UPDATE SET n = k.n + excluded.n, updated_at = now();
  ELSE -- TRUNCATE
    DELETE FROM row_counts WHERE table_name = 'maintenance_requests';
    DELETE FROM key_counts WHERE table_name = 'maintenance_requests';
    DELETE FROM monthly_totals WHERE source = 'maintenance_requests';
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS maintenance_requests_row_counts_insert ON maintenance_requests;
--> statement-breakpoint
DROP TRIGGER IF EXISTS maintenance_requests_row_counts_delete ON maintenance_requests;
--> statement-breakpoint
DROP TRIGGER IF EXISTS maintenance_requests_row_counts_update ON maintenance_requests;
--> statement-breakpoint
DROP TRIGGER IF EXISTS maintenance_requests_row_counts_truncate ON maintenance_requests;
--> statement-breakpoint
CREATE TRIGGER maintenance_requests_totals_insert AFTER INSERT ON maintenance_requests REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION maintenance_requests_totals();
--> statement-breakpoint
CREATE TRIGGER maintenance_requests_totals_delete AFTER DELETE ON maintenance_requests REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION maintenance_requests_totals();
--> statement-breakpoint
CREATE TRIGGER maintenance_requests_totals_update AFTER UPDATE ON maintenance_requests REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION maintenance_requests_totals();
--> statement-breakpoint
CREATE TRIGGER maintenance_requests_totals_truncate AFTER TRUNCATE ON maintenance_requests FOR EACH STATEMENT EXECUTE FUNCTION maintenance_requests_totals();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION commission_wages_totals() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO row_counts AS r (company_id, table_name, n)
      SELECT company_id, 'commission_wages', count(*) FROM new_rows GROUP BY company_id ORDER BY company_id
    ON CONFLICT (company_id, table_name) DO UPDATE SET n = r.n + excluded.n, updated_at = now();
    INSERT INTO key_counts AS k (company_id, table_name, key_name, key_value, n)
      SELECT company_id, 'commission_wages', key_name, key_value, count(*) FROM new_rows, LATERAL (VALUES ('employee_id', employee_id)) v(key_name, key_value)
       WHERE key_value IS NOT NULL GROUP BY company_id, key_name, key_value ORDER BY 1, 3, 4
    ON CONFLICT (company_id, table_name, key_name, key_value) DO UPDATE SET n = k.n + excluded.n, updated_at = now();
    INSERT INTO monthly_totals AS m (company_id, source, month, status, key, n, amount)
      SELECT company_id, 'commission_wages', date_trunc('month', payment_date::timestamp)::date, status, '', count(*), sum(amount)
        FROM new_rows GROUP BY 1, 3, 4, 5 ORDER BY 1, 3, 4, 5
    ON CONFLICT (company_id, source, month, status, key)
      DO UPDATE SET n = m.n + excluded.n, amount = m.amount + excluded.amount, updated_at = now();
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO row_counts AS r (company_id, table_name, n)
      SELECT company_id, 'commission_wages', -count(*) FROM old_rows GROUP BY company_id ORDER BY company_id
    ON CONFLICT (company_id, table_name) DO UPDATE SET n = r.n + excluded.n, updated_at = now();
    INSERT INTO key_counts AS k (company_id, table_name, key_name, key_value, n)
      SELECT company_id, 'commission_wages', key_name, key_value, -count(*) FROM old_rows, LATERAL (VALUES ('employee_id', employee_id)) v(key_name, key_value)
       WHERE key_value IS NOT NULL GROUP BY company_id, key_name, key_value ORDER BY 1, 3, 4
    ON CONFLICT (company_id, table_name, key_name, key_value) DO UPDATE SET n = k.n + excluded.n, updated_at = now();
    INSERT INTO monthly_totals AS m (company_id, source, month, status, key, n, amount)
      SELECT company_id, 'commission_wages', date_trunc('month', payment_date::timestamp)::date, status, '', -count(*), -sum(amount)
        FROM old_rows GROUP BY 1, 3, 4, 5 ORDER BY 1, 3, 4, 5
    ON CONFLICT (company_id, source, month, status, key)
      DO UPDATE SET n = m.n + excluded.n, amount = m.amount + excluded.amount, updated_at = now();
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO row_counts AS r (company_id, table_name, n)
      SELECT company_id, 'commission_wages', sum(d) FROM (
        SELECT company_id, 1 AS d FROM new_rows UNION ALL SELECT company_id, -1 FROM old_rows
      ) c GROUP BY company_id HAVING sum(d) <> 0 ORDER BY company_id
    ON CONFLICT (company_id, table_name) DO UPDATE SET n = r.n + excluded.n, updated_at = now();
    INSERT INTO key_counts AS k (company_id, table_name, key_name, key_value, n)
      SELECT company_id, 'commission_wages', key_name, key_value, sum(d) FROM (
        SELECT company_id, key_name, key_value, 1 AS d FROM new_rows, LATERAL (VALUES ('employee_id', employee_id)) v(key_name, key_value)
        UNION ALL
        SELECT company_id, key_name, key_value, -1 FROM old_rows, LATERAL (VALUES ('employee_id', employee_id)) v(key_name, key_value)
      ) c WHERE key_value IS NOT NULL GROUP BY company_id, key_name, key_value HAVING sum(d) <> 0 ORDER BY 1, 3, 4
    ON CONFLICT (company_id, table_name, key_name, key_value) DO UPDATE SET n = k.n + excluded.n, updated_at = now();
    INSERT INTO monthly_totals AS m (company_id, source, month, status, key, n, amount)
      SELECT company_id, 'commission_wages', month, status, key, sum(d), sum(a) FROM (
        SELECT company_id, date_trunc('month', payment_date::timestamp)::date AS month, status AS status, '' AS key,
               1 AS d, amount AS a FROM new_rows
        UNION ALL
        SELECT company_id, date_trunc('month', payment_date::timestamp)::date, status, '', -1, -amount FROM old_rows
      ) c GROUP BY company_id, month, status, key HAVING sum(d) <> 0 OR sum(a) <> 0 ORDER BY 1, 3, 4, 5
    ON CONFLICT (company_id, source, month, status, key)
      DO UPDATE SET n = m.n + excluded.n, amount = m.amount + excluded.amount, updated_at = now();
  ELSE -- TRUNCATE
    DELETE FROM row_counts WHERE table_name = 'commission_wages';
    DELETE FROM key_counts WHERE table_name = 'commission_wages';
    DELETE FROM monthly_totals WHERE source = 'commission_wages';
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS commission_wages_row_counts_insert ON commission_wages;
--> statement-breakpoint
DROP TRIGGER IF EXISTS commission_wages_row_counts_delete ON commission_wages;
--> statement-breakpoint
DROP TRIGGER IF EXISTS commission_wages_row_counts_update ON commission_wages;
--> statement-breakpoint
DROP TRIGGER IF EXISTS commission_wages_row_counts_truncate ON commission_wages;
--> statement-breakpoint
CREATE TRIGGER commission_wages_totals_insert AFTER INSERT ON commission_wages REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION commission_wages_totals();
--> statement-breakpoint
CREATE TRIGGER commission_wages_totals_delete AFTER DELETE ON commission_wages REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION commission_wages_totals();
--> statement-breakpoint
CREATE TRIGGER commission_wages_totals_update AFTER UPDATE ON commission_wages REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION commission_wages_totals();
--> statement-breakpoint
CREATE TRIGGER commission_wages_totals_truncate AFTER TRUNCATE ON commission_wages FOR EACH STATEMENT EXECUTE FUNCTION commission_wages_totals();
--> statement-breakpoint
-- Recomputes key_counts and monthly_totals from the rows (after a bulk load with triggers off).
CREATE OR REPLACE FUNCTION totals_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  LOCK TABLE payments IN SHARE MODE;
  DELETE FROM key_counts WHERE table_name = 'payments';
  INSERT INTO key_counts (company_id, table_name, key_name, key_value, n)
    SELECT company_id, 'payments', key_name, key_value, count(*) FROM payments, LATERAL (VALUES ('tenant_id', tenant_id), ('unit_id', unit_id)) v(key_name, key_value)
     WHERE key_value IS NOT NULL GROUP BY company_id, key_name, key_value;
  DELETE FROM monthly_totals WHERE source = 'payments';
  INSERT INTO monthly_totals (company_id, source, month, status, key, n, amount)
    SELECT company_id, 'payments', date_trunc('month', payment_date::timestamp)::date, status, COALESCE(payment_method, ''), count(*), sum(amount_paid)
      FROM payments GROUP BY 1, 3, 4, 5;
  LOCK TABLE occupancy IN SHARE MODE;
  DELETE FROM key_counts WHERE table_name = 'occupancy';
  INSERT INTO key_counts (company_id, table_name, key_name, key_value, n)
    SELECT company_id, 'occupancy', key_name, key_value, count(*) FROM occupancy, LATERAL (VALUES ('tenant_id', tenant_id), ('unit_id', unit_id)) v(key_name, key_value)
     WHERE key_value IS NOT NULL GROUP BY company_id, key_name, key_value;
  LOCK TABLE expenses IN SHARE MODE;
  DELETE FROM key_counts WHERE table_name = 'expenses';
  INSERT INTO key_counts (company_id, table_name, key_name, key_value, n)
    SELECT company_id, 'expenses', key_name, key_value, count(*) FROM expenses, LATERAL (VALUES ('unit_id', unit_id)) v(key_name, key_value)
     WHERE key_value IS NOT NULL GROUP BY company_id, key_name, key_value;
  DELETE FROM monthly_totals WHERE source = 'expenses';
  INSERT INTO monthly_totals (company_id, source, month, status, key, n, amount)
    SELECT company_id, 'expenses', date_trunc('month', expense_date::timestamp)::date, '', category, count(*), sum(amount)
      FROM expenses GROUP BY 1, 3, 4, 5;
  LOCK TABLE maintenance_requests IN SHARE MODE;
  DELETE FROM key_counts WHERE table_name = 'maintenance_requests';
  INSERT INTO key_counts (company_id, table_name, key_name, key_value, n)
    SELECT company_id, 'maintenance_requests', key_name, key_value, count(*) FROM maintenance_requests, LATERAL (VALUES ('unit_id', unit_id)) v(key_name, key_value)
     WHERE key_value IS NOT NULL GROUP BY company_id, key_name, key_value;
  LOCK TABLE commission_wages IN SHARE MODE;
  DELETE FROM key_counts WHERE table_name = 'commission_wages';
  INSERT INTO key_counts (company_id, table_name, key_name, key_value, n)
    SELECT company_id, 'commission_wages', key_name, key_value, count(*) FROM commission_wages, LATERAL (VALUES ('employee_id', employee_id)) v(key_name, key_value)
     WHERE key_value IS NOT NULL GROUP BY company_id, key_name, key_value;
  DELETE FROM monthly_totals WHERE source = 'commission_wages';
  INSERT INTO monthly_totals (company_id, source, month, status, key, n, amount)
    SELECT company_id, 'commission_wages', date_trunc('month', payment_date::timestamp)::date, status, '', count(*), sum(amount)
      FROM commission_wages GROUP BY 1, 3, 4, 5;
END $$;
--> statement-breakpoint
SELECT totals_rebuild();
--> statement-breakpoint
SELECT row_counts_rebuild();
