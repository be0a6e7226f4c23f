ALTER TABLE "companies" drop column "search_text";--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower(COALESCE(name::text, '') || E'\x1f' || COALESCE(email::text, '') || E'\x1f' || COALESCE(translate(phone_number, ' .-()', ''), '') || E'\x1f' || COALESCE(industry_type::text, ''))) STORED;--> statement-breakpoint
ALTER TABLE "employees" drop column "search_text";--> statement-breakpoint
ALTER TABLE "employees" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower(COALESCE((first_name || ' ' || last_name), '') || E'\x1f' || COALESCE(email::text, '') || E'\x1f' || COALESCE(translate(phone_number, ' .-()', ''), ''))) STORED;--> statement-breakpoint
ALTER TABLE "tenants" drop column "search_text";--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower(COALESCE((first_name || ' ' || last_name), '') || E'\x1f' || COALESCE(translate(phone, ' .-()', ''), ''))) STORED;--> statement-breakpoint
CREATE INDEX "companies_search_trgm_idx" ON "companies" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "employees_search_trgm_idx" ON "employees" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "tenants_search_trgm_idx" ON "tenants" USING gin ("search_text" gin_trgm_ops);
