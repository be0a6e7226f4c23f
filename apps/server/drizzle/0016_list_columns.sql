-- The totals, counts and versions of migrations 0004, 0007, 0009, 0013 and 0014 were kept by
-- hand-written triggers; from here on the triggers and their functions are generated from one
-- declaration (apps/server/src/db/derived.ts) and installed when the server starts. Their old
-- triggers and functions go first.
DO $$
DECLARE
  t text;
  s text;
BEGIN
  FOREACH t IN ARRAY ARRAY['units', 'tenants', 'occupancy', 'payments', 'vendors', 'maintenance_requests', 'expenses', 'employees', 'commission_wages'] LOOP
    FOREACH s IN ARRAY ARRAY['row_counts_insert', 'row_counts_delete', 'row_counts_update', 'row_counts_truncate', 'totals_insert', 'totals_delete', 'totals_update', 'totals_truncate', 'versions_insert', 'versions_delete', 'versions_update', 'lease_totals_insert', 'lease_totals_delete', 'lease_totals_update', 'lease_totals_truncate'] LOOP
      EXECUTE format('DROP TRIGGER IF EXISTS %I ON %I', t || '_' || s, t);
    END LOOP;
  END LOOP;
END $$;
--> statement-breakpoint
DROP FUNCTION IF EXISTS row_counts_add(), row_counts_remove(), row_counts_move(), row_counts_clear(), row_counts_rebuild(),
  lease_payment_totals_insert(), lease_payment_totals_delete(), lease_payment_totals_update(), lease_payment_totals_clear(),
  lease_payment_totals_rebuild(), payments_totals(), occupancy_totals(), expenses_totals(), maintenance_requests_totals(),
  commission_wages_totals(), units_totals(), totals_rebuild(), status_counts_rebuild(), row_versions_bump();
--> statement-breakpoint
-- A date as the text lists search it by (YYYY-MM-DD), immutable (date::text follows DateStyle), so
-- that a trigram index can hold it.
CREATE FUNCTION iso_date_text(d date) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN to_char(d, 'YYYY-MM-DD');
--> statement-breakpoint
CREATE TABLE "derived_state" (
	"name" varchar(63) PRIMARY KEY NOT NULL,
	"checksum" varchar(64) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "key_counts" DISABLE ROW LEVEL SECURITY;--> statement-breakpoint
DROP TABLE "key_counts" CASCADE;--> statement-breakpoint
DROP INDEX "commission_wages_company_date_idx";--> statement-breakpoint
DROP INDEX "expenses_company_date_idx";--> statement-breakpoint
DROP INDEX "payments_company_date_idx";--> statement-breakpoint
DROP INDEX "payments_company_status_idx";--> statement-breakpoint
DROP INDEX "payments_company_amount_idx";--> statement-breakpoint
DROP INDEX "payments_company_reference_idx";--> statement-breakpoint
DROP INDEX "payments_serial_trgm_idx";--> statement-breakpoint
DROP INDEX "payments_receipt_trgm_idx";--> statement-breakpoint
DROP INDEX "payments_reference_trgm_idx";--> statement-breakpoint
DROP INDEX "tenants_company_first_name_idx";--> statement-breakpoint
DROP INDEX "tenants_company_last_name_idx";--> statement-breakpoint
DROP INDEX "tenants_first_name_trgm_idx";--> statement-breakpoint
DROP INDEX "tenants_last_name_trgm_idx";--> statement-breakpoint
DROP INDEX "tenants_full_name_trgm_idx";--> statement-breakpoint
ALTER TABLE "commission_wages" ADD COLUMN "employee_name" text;--> statement-breakpoint
ALTER TABLE "employees" ADD COLUMN "full_name" text GENERATED ALWAYS AS (first_name || ' ' || last_name) STORED;--> statement-breakpoint
ALTER TABLE "expenses" ADD COLUMN "unit_name" text;--> statement-breakpoint
ALTER TABLE "expenses" ADD COLUMN "vendor_name" text;--> statement-breakpoint
ALTER TABLE "maintenance_requests" ADD COLUMN "unit_name" text;--> statement-breakpoint
ALTER TABLE "maintenance_requests" ADD COLUMN "tenant_name" text;--> statement-breakpoint
ALTER TABLE "maintenance_requests" ADD COLUMN "vendor_name" text;--> statement-breakpoint
ALTER TABLE "occupancy" ADD COLUMN "tenant_name" text;--> statement-breakpoint
ALTER TABLE "occupancy" ADD COLUMN "unit_name" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "tenant_name" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "unit_name" text;--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "full_name" text GENERATED ALWAYS AS (first_name || ' ' || last_name) STORED;--> statement-breakpoint
CREATE INDEX "commission_wages_employee_name_list_idx" ON "commission_wages" USING btree ("company_id","employee_name","id");--> statement-breakpoint
CREATE INDEX "commission_wages_payment_date_list_idx" ON "commission_wages" USING btree ("company_id","payment_date","id");--> statement-breakpoint
CREATE INDEX "commission_wages_payment_category_list_idx" ON "commission_wages" USING btree ("company_id","payment_category","id");--> statement-breakpoint
CREATE INDEX "commission_wages_payment_method_list_idx" ON "commission_wages" USING btree ("company_id","payment_method","id");--> statement-breakpoint
CREATE INDEX "commission_wages_commission_split_percentage_list_idx" ON "commission_wages" USING btree ("company_id","commission_split_percentage","id");--> statement-breakpoint
CREATE INDEX "commission_wages_payment_start_date_list_idx" ON "commission_wages" USING btree ("company_id","payment_start_date","id");--> statement-breakpoint
CREATE INDEX "commission_wages_payment_end_date_list_idx" ON "commission_wages" USING btree ("company_id","payment_end_date","id");--> statement-breakpoint
CREATE INDEX "commission_wages_status_list_idx" ON "commission_wages" USING btree ("company_id","status","id");--> statement-breakpoint
CREATE INDEX "commission_wages_amount_list_idx" ON "commission_wages" USING btree ("company_id","amount","id");--> statement-breakpoint
CREATE INDEX "commission_wages_employee_id_trgm_idx" ON "commission_wages" USING gin ((("employee_id")::text) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "commission_wages_company_id_trgm_idx" ON "commission_wages" USING gin ((("company_id")::text) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "commission_wages_payment_date_trgm_idx" ON "commission_wages" USING gin (iso_date_text("payment_date") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "commission_wages_employee_name_trgm_idx" ON "commission_wages" USING gin ("employee_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "companies_name_list_idx" ON "companies" USING btree ("name","id");--> statement-breakpoint
CREATE INDEX "companies_email_list_idx" ON "companies" USING btree ("email","id");--> statement-breakpoint
CREATE INDEX "companies_industry_type_list_idx" ON "companies" USING btree ("industry_type","id");--> statement-breakpoint
CREATE INDEX "companies_currency_code_list_idx" ON "companies" USING btree ("currency_code","id");--> statement-breakpoint
CREATE INDEX "companies_status_list_idx" ON "companies" USING btree ("status","id");--> statement-breakpoint
CREATE INDEX "companies_name_trgm_idx" ON "companies" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "companies_email_trgm_idx" ON "companies" USING gin ("email" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "companies_phone_number_trgm_idx" ON "companies" USING gin ("phone_number" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "companies_industry_type_trgm_idx" ON "companies" USING gin ("industry_type" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "countries_country_code_list_idx" ON "countries" USING btree ("country_code","id");--> statement-breakpoint
CREATE INDEX "countries_country_name_list_idx" ON "countries" USING btree ("country_name","id");--> statement-breakpoint
CREATE INDEX "countries_phone_code_list_idx" ON "countries" USING btree ("phone_code","id");--> statement-breakpoint
CREATE INDEX "countries_country_name_trgm_idx" ON "countries" USING gin ("country_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "countries_country_code_trgm_idx" ON "countries" USING gin ((("country_code")::text) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "currencies_currency_code_list_idx" ON "currencies" USING btree ("currency_code","id");--> statement-breakpoint
CREATE INDEX "currencies_currency_name_list_idx" ON "currencies" USING btree ("currency_name","id");--> statement-breakpoint
CREATE INDEX "currencies_decimal_places_list_idx" ON "currencies" USING btree ("decimal_places","id");--> statement-breakpoint
CREATE INDEX "currencies_country_list_idx" ON "currencies" USING btree ("country","id");--> statement-breakpoint
CREATE INDEX "currencies_currency_name_trgm_idx" ON "currencies" USING gin ("currency_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "currencies_currency_code_trgm_idx" ON "currencies" USING gin ((("currency_code")::text) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "currencies_country_trgm_idx" ON "currencies" USING gin ((("country")::text) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "employees_first_name_list_idx" ON "employees" USING btree ("company_id","first_name","id");--> statement-breakpoint
CREATE INDEX "employees_last_name_list_idx" ON "employees" USING btree ("company_id","last_name","id");--> statement-breakpoint
CREATE INDEX "employees_email_list_idx" ON "employees" USING btree ("company_id","email","id");--> statement-breakpoint
CREATE INDEX "employees_job_title_list_idx" ON "employees" USING btree ("company_id","job_title","id");--> statement-breakpoint
CREATE INDEX "employees_hire_date_list_idx" ON "employees" USING btree ("company_id","hire_date","id");--> statement-breakpoint
CREATE INDEX "employees_salary_list_idx" ON "employees" USING btree ("company_id","salary","id");--> statement-breakpoint
CREATE INDEX "employees_expected_pay_day_list_idx" ON "employees" USING btree ("company_id","expected_pay_day","id");--> statement-breakpoint
CREATE INDEX "employees_status_list_idx" ON "employees" USING btree ("company_id","status","id");--> statement-breakpoint
CREATE INDEX "employees_full_name_trgm_idx" ON "employees" USING gin ("full_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "employees_email_trgm_idx" ON "employees" USING gin ("email" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "employees_phone_number_trgm_idx" ON "employees" USING gin ("phone_number" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "expenses_unit_name_list_idx" ON "expenses" USING btree ("company_id","unit_name","id");--> statement-breakpoint
CREATE INDEX "expenses_expense_date_list_idx" ON "expenses" USING btree ("company_id","expense_date","id");--> statement-breakpoint
CREATE INDEX "expenses_amount_list_idx" ON "expenses" USING btree ("company_id","amount","id");--> statement-breakpoint
CREATE INDEX "expenses_category_list_idx" ON "expenses" USING btree ("company_id","category","id");--> statement-breakpoint
CREATE INDEX "expenses_vendor_name_list_idx" ON "expenses" USING btree ("company_id","vendor_name","id");--> statement-breakpoint
CREATE INDEX "expenses_category_trgm_idx" ON "expenses" USING gin ("category" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "expenses_unit_name_trgm_idx" ON "expenses" USING gin ("unit_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "maintenance_requests_unit_name_list_idx" ON "maintenance_requests" USING btree ("company_id","unit_name","id");--> statement-breakpoint
CREATE INDEX "maintenance_requests_tenant_name_list_idx" ON "maintenance_requests" USING btree ("company_id","tenant_name","id");--> statement-breakpoint
CREATE INDEX "maintenance_requests_request_date_list_idx" ON "maintenance_requests" USING btree ("company_id","request_date","id");--> statement-breakpoint
CREATE INDEX "maintenance_requests_priority_list_idx" ON "maintenance_requests" USING btree ("company_id","priority","id");--> statement-breakpoint
CREATE INDEX "maintenance_requests_status_list_idx" ON "maintenance_requests" USING btree ("company_id","status","id");--> statement-breakpoint
CREATE INDEX "maintenance_requests_estimated_cost_list_idx" ON "maintenance_requests" USING btree ("company_id","estimated_cost","id");--> statement-breakpoint
CREATE INDEX "maintenance_requests_vendor_name_list_idx" ON "maintenance_requests" USING btree ("company_id","vendor_name","id");--> statement-breakpoint
CREATE INDEX "maintenance_requests_description_trgm_idx" ON "maintenance_requests" USING gin ("description" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "maintenance_requests_status_trgm_idx" ON "maintenance_requests" USING gin ("status" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "maintenance_requests_unit_name_trgm_idx" ON "maintenance_requests" USING gin ("unit_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "occupancy_tenant_name_list_idx" ON "occupancy" USING btree ("company_id","tenant_name","id");--> statement-breakpoint
CREATE INDEX "occupancy_unit_name_list_idx" ON "occupancy" USING btree ("company_id","unit_name","id");--> statement-breakpoint
CREATE INDEX "occupancy_start_date_list_idx" ON "occupancy" USING btree ("company_id","start_date","id");--> statement-breakpoint
CREATE INDEX "occupancy_end_date_list_idx" ON "occupancy" USING btree ("company_id","end_date","id");--> statement-breakpoint
CREATE INDEX "occupancy_rate_list_idx" ON "occupancy" USING btree ("company_id","rate","id");--> statement-breakpoint
CREATE INDEX "occupancy_rent_cycle_list_idx" ON "occupancy" USING btree ("company_id","rent_cycle","id");--> statement-breakpoint
CREATE INDEX "occupancy_occupancy_status_list_idx" ON "occupancy" USING btree ("company_id","occupancy_status","id");--> statement-breakpoint
CREATE INDEX "occupancy_deposit_status_list_idx" ON "occupancy" USING btree ("company_id","deposit_status","id");--> statement-breakpoint
CREATE INDEX "occupancy_tenant_name_trgm_idx" ON "occupancy" USING gin ("tenant_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "occupancy_unit_name_trgm_idx" ON "occupancy" USING gin ("unit_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "occupancy_start_date_trgm_idx" ON "occupancy" USING gin (iso_date_text("start_date") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "occupancy_end_date_trgm_idx" ON "occupancy" USING gin (iso_date_text("end_date") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "payments_payment_date_list_idx" ON "payments" USING btree ("company_id","payment_date","id");--> statement-breakpoint
CREATE INDEX "payments_status_list_idx" ON "payments" USING btree ("company_id","status","id");--> statement-breakpoint
CREATE INDEX "payments_tenant_name_list_idx" ON "payments" USING btree ("company_id","tenant_name","id");--> statement-breakpoint
CREATE INDEX "payments_unit_name_list_idx" ON "payments" USING btree ("company_id","unit_name","id");--> statement-breakpoint
CREATE INDEX "payments_amount_paid_list_idx" ON "payments" USING btree ("company_id","amount_paid","id");--> statement-breakpoint
CREATE INDEX "payments_reference_number_list_idx" ON "payments" USING btree ("company_id","reference_number","id");--> statement-breakpoint
CREATE INDEX "payments_receipt_number_list_idx" ON "payments" USING btree ("company_id","receipt_number","id");--> statement-breakpoint
CREATE INDEX "payments_payment_serial_list_idx" ON "payments" USING btree ("company_id","payment_serial","id");--> statement-breakpoint
CREATE INDEX "payments_payment_method_list_idx" ON "payments" USING btree ("company_id","payment_method","id");--> statement-breakpoint
CREATE INDEX "payments_payment_serial_trgm_idx" ON "payments" USING gin ("payment_serial" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "payments_receipt_number_trgm_idx" ON "payments" USING gin ("receipt_number" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "payments_tenant_name_trgm_idx" ON "payments" USING gin ("tenant_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "payments_unit_name_trgm_idx" ON "payments" USING gin ("unit_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "payments_reference_number_trgm_idx" ON "payments" USING gin ("reference_number" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "tenants_first_name_list_idx" ON "tenants" USING btree ("company_id","first_name","id");--> statement-breakpoint
CREATE INDEX "tenants_last_name_list_idx" ON "tenants" USING btree ("company_id","last_name","id");--> statement-breakpoint
CREATE INDEX "tenants_sex_list_idx" ON "tenants" USING btree ("company_id","sex","id");--> statement-breakpoint
CREATE INDEX "tenants_status_list_idx" ON "tenants" USING btree ("company_id","status","id");--> statement-breakpoint
CREATE INDEX "units_name_list_idx" ON "units" USING btree ("company_id","name","id");--> statement-breakpoint
CREATE INDEX "units_address_list_idx" ON "units" USING btree ("company_id","address","id");--> statement-breakpoint
CREATE INDEX "units_unit_type_list_idx" ON "units" USING btree ("company_id","unit_type","id");--> statement-breakpoint
CREATE INDEX "units_monthly_rate_list_idx" ON "units" USING btree ("company_id","monthly_rate","id");--> statement-breakpoint
CREATE INDEX "units_status_list_idx" ON "units" USING btree ("company_id","status","id");--> statement-breakpoint
CREATE INDEX "vendors_name_list_idx" ON "vendors" USING btree ("company_id","name","id");--> statement-breakpoint
CREATE INDEX "vendors_service_offered_list_idx" ON "vendors" USING btree ("company_id","service_offered","id");--> statement-breakpoint
CREATE INDEX "vendors_name_trgm_idx" ON "vendors" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "vendors_service_offered_trgm_idx" ON "vendors" USING gin ("service_offered" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "tenants_full_name_trgm_idx" ON "tenants" USING gin ("full_name" gin_trgm_ops);--> statement-breakpoint
ALTER TABLE "row_counts" DROP COLUMN "data_version";--> statement-breakpoint
DROP SEQUENCE "public"."row_versions";