ALTER TABLE "companies" ADD COLUMN "default_language" varchar(2) DEFAULT 'en' NOT NULL;--> statement-breakpoint
ALTER TABLE "owners" ADD COLUMN "language" varchar(2);--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "language" varchar(2);--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "language" varchar(2);--> statement-breakpoint
ALTER TABLE "companies" ADD CONSTRAINT "companies_default_language_known" CHECK ("companies"."default_language" IN ('en', 'sw', 'fr'));--> statement-breakpoint
ALTER TABLE "owners" ADD CONSTRAINT "owners_language_known" CHECK ("owners"."language" IN ('en', 'sw', 'fr'));--> statement-breakpoint
ALTER TABLE "tenants" ADD CONSTRAINT "tenants_language_known" CHECK ("tenants"."language" IN ('en', 'sw', 'fr'));--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_language_known" CHECK ("users"."language" IN ('en', 'sw', 'fr'));