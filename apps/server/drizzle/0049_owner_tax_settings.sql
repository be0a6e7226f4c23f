ALTER TABLE "company_settings" ADD COLUMN "rental_tax" jsonb;--> statement-breakpoint
ALTER TABLE "company_settings" ADD COLUMN "owner_statements_day" integer;--> statement-breakpoint
ALTER TABLE "company_settings" ADD CONSTRAINT "company_settings_owner_statements_day_range" CHECK ("company_settings"."owner_statements_day" IS NULL OR "company_settings"."owner_statements_day" BETWEEN 1 AND 28);