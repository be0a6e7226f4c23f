ALTER TABLE "charges" ADD COLUMN "service_month" date;--> statement-breakpoint
ALTER TABLE "company_settings" ADD COLUMN "service_charge_amount" numeric(14, 2) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "company_settings" ADD COLUMN "service_charge_description" varchar(60) DEFAULT 'Service charge' NOT NULL;--> statement-breakpoint
ALTER TABLE "properties" ADD COLUMN "service_charge" numeric(14, 2);--> statement-breakpoint
CREATE UNIQUE INDEX "charges_service_month_key" ON "charges" USING btree ("company_id","occupancy_id","service_month") WHERE "charges"."service_month" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "charges" ADD CONSTRAINT "charges_service_month_first" CHECK ("charges"."service_month" IS NULL OR date_part('day', "charges"."service_month") = 1);--> statement-breakpoint
ALTER TABLE "company_settings" ADD CONSTRAINT "company_settings_service_charge_not_negative" CHECK ("company_settings"."service_charge_amount" >= 0);--> statement-breakpoint
ALTER TABLE "properties" ADD CONSTRAINT "properties_service_charge_not_negative" CHECK ("properties"."service_charge" >= 0);