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
CREATE TRIGGER units_versions_insert AFTER INSERT ON units REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION row_versions_bump();
--> statement-breakpoint
CREATE TRIGGER units_versions_delete AFTER DELETE ON units REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION row_versions_bump();
--> statement-breakpoint
CREATE TRIGGER units_versions_update AFTER UPDATE ON units REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION row_versions_bump();
--> statement-breakpoint
CREATE TRIGGER tenants_versions_insert AFTER INSERT ON tenants REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION row_versions_bump();
--> statement-breakpoint
CREATE TRIGGER tenants_versions_delete AFTER DELETE ON tenants REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION row_versions_bump();
--> statement-breakpoint
CREATE TRIGGER tenants_versions_update AFTER UPDATE ON tenants REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION row_versions_bump();
--> statement-breakpoint
CREATE TRIGGER occupancy_versions_insert AFTER INSERT ON occupancy REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION row_versions_bump();
--> statement-breakpoint
CREATE TRIGGER occupancy_versions_delete AFTER DELETE ON occupancy REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION row_versions_bump();
--> statement-breakpoint
CREATE TRIGGER occupancy_versions_update AFTER UPDATE ON occupancy REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION row_versions_bump();
--> statement-breakpoint
CREATE TRIGGER payments_versions_insert AFTER INSERT ON payments REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION row_versions_bump();
--> statement-breakpoint
CREATE TRIGGER payments_versions_delete AFTER DELETE ON payments REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION row_versions_bump();
--> statement-breakpoint
CREATE TRIGGER payments_versions_update AFTER UPDATE ON payments REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION row_versions_bump();
--> statement-breakpoint
CREATE TRIGGER vendors_versions_insert AFTER INSERT ON vendors REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION row_versions_bump();
--> statement-breakpoint
CREATE TRIGGER vendors_versions_delete AFTER DELETE ON vendors REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION row_versions_bump();
--> statement-breakpoint
CREATE TRIGGER vendors_versions_update AFTER UPDATE ON vendors REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION row_versions_bump();
--> statement-breakpoint
CREATE TRIGGER maintenance_requests_versions_insert AFTER INSERT ON maintenance_requests REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION row_versions_bump();
--> statement-breakpoint
CREATE TRIGGER maintenance_requests_versions_delete AFTER DELETE ON maintenance_requests REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION row_versions_bump();
--> statement-breakpoint
CREATE TRIGGER maintenance_requests_versions_update AFTER UPDATE ON maintenance_requests REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION row_versions_bump();
--> statement-breakpoint
CREATE TRIGGER expenses_versions_insert AFTER INSERT ON expenses REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION row_versions_bump();
--> statement-breakpoint
CREATE TRIGGER expenses_versions_delete AFTER DELETE ON expenses REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION row_versions_bump();
--> statement-breakpoint
CREATE TRIGGER expenses_versions_update AFTER UPDATE ON expenses REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION row_versions_bump();
--> statement-breakpoint
CREATE TRIGGER employees_versions_insert AFTER INSERT ON employees REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION row_versions_bump();
--> statement-breakpoint
CREATE TRIGGER employees_versions_delete AFTER DELETE ON employees REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION row_versions_bump();
--> statement-breakpoint
CREATE TRIGGER employees_versions_update AFTER UPDATE ON employees REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION row_versions_bump();
--> statement-breakpoint
CREATE TRIGGER commission_wages_versions_insert AFTER INSERT ON commission_wages REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION row_versions_bump();
--> statement-breakpoint
CREATE TRIGGER commission_wages_versions_delete AFTER DELETE ON commission_wages REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION row_versions_bump();
--> statement-breakpoint
CREATE TRIGGER commission_wages_versions_update AFTER UPDATE ON commission_wages REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION row_versions_bump();
