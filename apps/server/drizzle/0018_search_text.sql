DROP INDEX "commission_wages_employee_id_trgm_idx";--> statement-breakpoint
DROP INDEX "commission_wages_company_id_trgm_idx";--> statement-breakpoint
DROP INDEX "commission_wages_payment_date_trgm_idx";--> statement-breakpoint
DROP INDEX "commission_wages_employee_name_trgm_idx";--> statement-breakpoint
DROP INDEX "companies_name_trgm_idx";--> statement-breakpoint
DROP INDEX "companies_email_trgm_idx";--> statement-breakpoint
DROP INDEX "companies_phone_number_trgm_idx";--> statement-breakpoint
DROP INDEX "companies_industry_type_trgm_idx";--> statement-breakpoint
DROP INDEX "countries_country_name_trgm_idx";--> statement-breakpoint
DROP INDEX "countries_country_code_trgm_idx";--> statement-breakpoint
DROP INDEX "currencies_currency_name_trgm_idx";--> statement-breakpoint
DROP INDEX "currencies_currency_code_trgm_idx";--> statement-breakpoint
DROP INDEX "currencies_country_trgm_idx";--> statement-breakpoint
DROP INDEX "employees_full_name_trgm_idx";--> statement-breakpoint
DROP INDEX "employees_email_trgm_idx";--> statement-breakpoint
DROP INDEX "employees_phone_number_trgm_idx";--> statement-breakpoint
DROP INDEX "expenses_category_trgm_idx";--> statement-breakpoint
DROP INDEX "expenses_unit_name_trgm_idx";--> statement-breakpoint
DROP INDEX "maintenance_requests_description_trgm_idx";--> statement-breakpoint
DROP INDEX "maintenance_requests_status_trgm_idx";--> statement-breakpoint
DROP INDEX "maintenance_requests_unit_name_trgm_idx";--> statement-breakpoint
DROP INDEX "occupancy_tenant_name_trgm_idx";--> statement-breakpoint
DROP INDEX "occupancy_unit_name_trgm_idx";--> statement-breakpoint
DROP INDEX "occupancy_start_date_trgm_idx";--> statement-breakpoint
DROP INDEX "occupancy_end_date_trgm_idx";--> statement-breakpoint
DROP INDEX "payments_payment_serial_trgm_idx";--> statement-breakpoint
DROP INDEX "payments_receipt_number_trgm_idx";--> statement-breakpoint
DROP INDEX "payments_tenant_name_trgm_idx";--> statement-breakpoint
DROP INDEX "payments_unit_name_trgm_idx";--> statement-breakpoint
DROP INDEX "payments_reference_number_trgm_idx";--> statement-breakpoint
DROP INDEX "properties_name_trgm_idx";--> statement-breakpoint
DROP INDEX "properties_address_trgm_idx";--> statement-breakpoint
DROP INDEX "properties_manager_name_trgm_idx";--> statement-breakpoint
DROP INDEX "tenants_full_name_trgm_idx";--> statement-breakpoint
DROP INDEX "tenants_phone_trgm_idx";--> statement-breakpoint
DROP INDEX "units_name_trgm_idx";--> statement-breakpoint
DROP INDEX "units_address_trgm_idx";--> statement-breakpoint
DROP INDEX "units_description_trgm_idx";--> statement-breakpoint
DROP INDEX "vendors_name_trgm_idx";--> statement-breakpoint
DROP INDEX "vendors_service_offered_trgm_idx";--> statement-breakpoint
ALTER TABLE "commission_wages" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower(COALESCE((employee_id)::text, '') || E'\x1f' || COALESCE((company_id)::text, '') || E'\x1f' || COALESCE(iso_date_text(payment_date), '') || E'\x1f' || COALESCE(employee_name::text, ''))) STORED;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower(COALESCE(name::text, '') || E'\x1f' || COALESCE(email::text, '') || E'\x1f' || COALESCE(phone_number::text, '') || E'\x1f' || COALESCE(industry_type::text, ''))) STORED;--> statement-breakpoint
ALTER TABLE "countries" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower(COALESCE(country_name::text, '') || E'\x1f' || COALESCE(country_code::text, ''))) STORED;--> statement-breakpoint
ALTER TABLE "currencies" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower(COALESCE(currency_name::text, '') || E'\x1f' || COALESCE(currency_code::text, '') || E'\x1f' || COALESCE(country::text, ''))) STORED;--> statement-breakpoint
ALTER TABLE "employees" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower(COALESCE((first_name || ' ' || last_name), '') || E'\x1f' || COALESCE(email::text, '') || E'\x1f' || COALESCE(phone_number::text, ''))) STORED;--> statement-breakpoint
ALTER TABLE "expenses" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower(COALESCE(category::text, '') || E'\x1f' || COALESCE(unit_name::text, ''))) STORED;--> statement-breakpoint
ALTER TABLE "maintenance_requests" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower(COALESCE(description::text, '') || E'\x1f' || COALESCE(status::text, '') || E'\x1f' || COALESCE(unit_name::text, ''))) STORED;--> statement-breakpoint
ALTER TABLE "occupancy" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower(COALESCE(tenant_name::text, '') || E'\x1f' || COALESCE(unit_name::text, '') || E'\x1f' || COALESCE(iso_date_text(start_date), '') || E'\x1f' || COALESCE(iso_date_text(end_date), ''))) STORED;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower(COALESCE(payment_serial::text, '') || E'\x1f' || COALESCE(receipt_number::text, '') || E'\x1f' || COALESCE(tenant_name::text, '') || E'\x1f' || COALESCE(unit_name::text, '') || E'\x1f' || COALESCE(reference_number::text, ''))) STORED;--> statement-breakpoint
ALTER TABLE "properties" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower(COALESCE(name::text, '') || E'\x1f' || COALESCE(address::text, '') || E'\x1f' || COALESCE(manager_name::text, ''))) STORED;--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower(COALESCE((first_name || ' ' || last_name), '') || E'\x1f' || COALESCE(phone::text, ''))) STORED;--> statement-breakpoint
ALTER TABLE "units" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower(COALESCE(name::text, '') || E'\x1f' || COALESCE(address::text, '') || E'\x1f' || COALESCE(description::text, ''))) STORED;--> statement-breakpoint
ALTER TABLE "vendors" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower(COALESCE(name::text, '') || E'\x1f' || COALESCE(service_offered::text, ''))) STORED;--> statement-breakpoint
CREATE INDEX "commission_wages_search_trgm_idx" ON "commission_wages" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "companies_search_trgm_idx" ON "companies" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "countries_search_trgm_idx" ON "countries" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "currencies_search_trgm_idx" ON "currencies" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "employees_search_trgm_idx" ON "employees" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "expenses_search_trgm_idx" ON "expenses" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "maintenance_requests_search_trgm_idx" ON "maintenance_requests" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "occupancy_search_trgm_idx" ON "occupancy" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "payments_search_trgm_idx" ON "payments" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "properties_search_trgm_idx" ON "properties" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "tenants_search_trgm_idx" ON "tenants" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "units_search_trgm_idx" ON "units" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "vendors_search_trgm_idx" ON "vendors" USING gin ("search_text" gin_trgm_ops);