-- Rows per company and status (status_counts) for units, maintenance requests and payments: the
-- trigger functions of 0009 for payments and maintenance requests are replaced by versions that keep
-- them too (no extra trigger on the hot insert of payments); units get one function for their
-- row_counts (replacing the generic triggers of 0004) and status counts.

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
    INSERT INTO status_counts AS c (company_id, table_name, status, n)
      SELECT company_id, 'payments', status, count(*) FROM new_rows GROUP BY company_id, status ORDER BY 1, 3
    ON CONFLICT (company_id, table_name, status) DO UPDATE SET n = c.n + excluded.n, updated_at = now();
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
    INSERT INTO status_counts AS c (company_id, table_name, status, n)
      SELECT company_id, 'payments', status, -count(*) FROM old_rows GROUP BY company_id, status ORDER BY 1, 3
    ON CONFLICT (company_id, table_name, status) DO UPDATE SET n = c.n + excluded.n, updated_at = now();
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
    INSERT INTO status_counts AS c (company_id, table_name, status, n)
      SELECT company_id, 'payments', status, sum(d) FROM (
        SELECT company_id, status AS status, 1 AS d FROM new_rows UNION ALL SELECT company_id, status, -1 FROM old_rows
      ) s GROUP BY company_id, status HAVING sum(d) <> 0 ORDER BY 1, 3
    ON CONFLICT (company_id, table_name, status) DO UPDATE SET n = c.n + excluded.n, updated_at = now();
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
    DELETE FROM status_counts WHERE table_name = 'payments';
    DELETE FROM key_counts WHERE table_name = 'payments';
    DELETE FROM monthly_totals WHERE source = 'payments';
  END IF;
  RETURN NULL;
END $$;
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
    INSERT INTO status_counts AS c (company_id, table_name, status, n)
      SELECT company_id, 'maintenance_requests', status, count(*) FROM new_rows GROUP BY company_id, status ORDER BY 1, 3
    ON CONFLICT (company_id, table_name, status) DO UPDATE SET n = c.n + excluded.n, updated_at = now();
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO row_counts AS r (company_id, table_name, n)
      SELECT company_id, 'maintenance_requests', -count(*) FROM old_rows GROUP BY company_id ORDER BY company_id
    ON CONFLICT (company_id, table_name) DO UPDATE SET n = r.n + excluded.n, updated_at = now();
    INSERT INTO key_counts AS k (company_id, table_name, key_name, key_value, n)
      SELECT company_id, 'maintenance_requests', key_name, key_value, -count(*) FROM old_rows, LATERAL (VALUES ('unit_id', unit_id)) v(key_name, key_value)
       WHERE key_value IS NOT NULL GROUP BY company_id, key_name, key_value ORDER BY 1, 3, 4
    ON CONFLICT (company_id, table_name, key_name, key_value) DO UPDATE SET n = k.n + excluded.n, updated_at = now();
    INSERT INTO status_counts AS c (company_id, table_name, status, n)
      SELECT company_id, 'maintenance_requests', status, -count(*) FROM old_rows GROUP BY company_id, status ORDER BY 1, 3
    ON CONFLICT (company_id, table_name, status) DO UPDATE SET n = c.n + excluded.n, updated_at = now();
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
    INSERT INTO status_counts AS c (company_id, table_name, status, n)
      SELECT company_id, 'maintenance_requests', status, sum(d) FROM (
        SELECT company_id, status AS status, 1 AS d FROM new_rows UNION ALL SELECT company_id, status, -1 FROM old_rows
      ) s GROUP BY company_id, status HAVING sum(d) <> 0 ORDER BY 1, 3
    ON CONFLICT (company_id, table_name, status) DO UPDATE SET n = c.n + excluded.n, updated_at = now();
  ELSE -- TRUNCATE
    DELETE FROM row_counts WHERE table_name = 'maintenance_requests';
    DELETE FROM status_counts WHERE table_name = 'maintenance_requests';
    DELETE FROM key_counts WHERE table_name = 'maintenance_requests';
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION units_totals() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO row_counts AS r (company_id, table_name, n)
      SELECT company_id, 'units', count(*) FROM new_rows GROUP BY company_id ORDER BY company_id
    ON CONFLICT (company_id, table_name) DO UPDATE SET n = r.n + excluded.n, updated_at = now();
    INSERT INTO status_counts AS c (company_id, table_name, status, n)
      SELECT company_id, 'units', status, count(*) FROM new_rows GROUP BY company_id, status ORDER BY 1, 3
    ON CONFLICT (company_id, table_name, status) DO UPDATE SET n = c.n + excluded.n, updated_at = now();
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO row_counts AS r (company_id, table_name, n)
      SELECT company_id, 'units', -count(*) FROM old_rows GROUP BY company_id ORDER BY company_id
    ON CONFLICT (company_id, table_name) DO UPDATE SET n = r.n + excluded.n, updated_at = now();
    INSERT INTO status_counts AS c (company_id, table_name, status, n)
      SELECT company_id, 'units', status, -count(*) FROM old_rows GROUP BY company_id, status ORDER BY 1, 3
    ON CONFLICT (company_id, table_name, status) DO UPDATE SET n = c.n + excluded.n, updated_at = now();
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO row_counts AS r (company_id, table_name, n)
      SELECT company_id, 'units', sum(d) FROM (
        SELECT company_id, 1 AS d FROM new_rows UNION ALL SELECT company_id, -1 FROM old_rows
      ) c GROUP BY company_id HAVING sum(d) <> 0 ORDER BY company_id
    ON CONFLICT (company_id, table_name) DO UPDATE SET n = r.n + excluded.n, updated_at = now();
    INSERT INTO status_counts AS c (company_id, table_name, status, n)
      SELECT company_id, 'units', status, sum(d) FROM (
        SELECT company_id, status AS status, 1 AS d FROM new_rows UNION ALL SELECT company_id, status, -1 FROM old_rows
      ) s GROUP BY company_id, status HAVING sum(d) <> 0 ORDER BY 1, 3
    ON CONFLICT (company_id, table_name, status) DO UPDATE SET n = c.n + excluded.n, updated_at = now();
  ELSE -- TRUNCATE
    DELETE FROM row_counts WHERE table_name = 'units';
    DELETE FROM status_counts WHERE table_name = 'units';
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS units_row_counts_insert ON units;
--> statement-breakpoint
DROP TRIGGER IF EXISTS units_row_counts_delete ON units;
--> statement-breakpoint
DROP TRIGGER IF EXISTS units_row_counts_update ON units;
--> statement-breakpoint
DROP TRIGGER IF EXISTS units_row_counts_truncate ON units;
--> statement-breakpoint
CREATE TRIGGER units_totals_insert AFTER INSERT ON units REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION units_totals();
--> statement-breakpoint
CREATE TRIGGER units_totals_delete AFTER DELETE ON units REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION units_totals();
--> statement-breakpoint
CREATE TRIGGER units_totals_update AFTER UPDATE ON units REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION units_totals();
--> statement-breakpoint
CREATE TRIGGER units_totals_truncate AFTER TRUNCATE ON units FOR EACH STATEMENT EXECUTE FUNCTION units_totals();
--> statement-breakpoint
-- Recounts the status counts from the rows (after a bulk load with triggers off).
CREATE OR REPLACE FUNCTION status_counts_rebuild() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['units', 'maintenance_requests', 'payments'] LOOP
    EXECUTE format('LOCK TABLE %I IN SHARE MODE', t);
    DELETE FROM status_counts WHERE table_name = t;
    EXECUTE format('INSERT INTO status_counts (company_id, table_name, status, n) SELECT company_id, %L, status, count(*) FROM %I GROUP BY company_id, status', t, t);
  END LOOP;
END $$;
--> statement-breakpoint
SELECT status_counts_rebuild();
