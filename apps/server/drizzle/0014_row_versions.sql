CREATE SEQUENCE "public"."row_versions" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
ALTER TABLE "row_counts" ADD COLUMN "data_version" bigint DEFAULT nextval('row_versions') NOT NULL;--> statement-breakpoint
-- Every statement that writes a company's rows of a counted table gives its row_counts row a new
-- data_version (drawn from row_versions, never twice): the lists keep what they derive from those
-- rows (a search's matches, a deep page's position) only while its versions are the current ones.
-- These triggers are named after the tables' *_totals triggers, so they fire after them (triggers of
-- one event fire in name order): the row_counts row of a company's first row exists by then.
CREATE OR REPLACE FUNCTION row_versions_bump() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE row_counts r SET data_version = nextval('row_versions')
     WHERE r.table_name = TG_TABLE_NAME AND r.company_id IN (SELECT company_id FROM new_rows);
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE row_counts r SET data_version = nextval('row_versions')
     WHERE r.table_name = TG_TABLE_NAME AND r.company_id IN (SELECT company_id FROM old_rows);
  ELSE
    UPDATE row_counts r SET data_version = nextval('row_versions')
     WHERE r.table_name = TG_TABLE_NAME
       AND r.company_id IN (SELECT company_id FROM new_rows UNION SELECT company_id FROM old_rows);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
DO $$
DECLARE
  t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['units', 'tenants', 'occupancy', 'payments', 'vendors', 'maintenance_requests', 'expenses', 'employees', 'commission_wages'] LOOP
    EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %I REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION row_versions_bump()', t || '_versions_insert', t);
    EXECUTE format('CREATE TRIGGER %I AFTER DELETE ON %I REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION row_versions_bump()', t || '_versions_delete', t);
    EXECUTE format('CREATE TRIGGER %I AFTER UPDATE ON %I REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION row_versions_bump()', t || '_versions_update', t);
  END LOOP;
END $$;
