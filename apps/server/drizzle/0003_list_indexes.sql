CREATE TABLE "row_counts" (
	"company_id" integer NOT NULL,
	"table_name" varchar(63) NOT NULL,
	"n" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "row_counts_company_id_table_name_pk" PRIMARY KEY("company_id","table_name")
);
--> statement-breakpoint
DROP INDEX "expenses_company_date_idx";--> statement-breakpoint
DROP INDEX "payments_company_date_idx";--> statement-breakpoint
DROP INDEX "payments_company_status_idx";--> statement-breakpoint
ALTER TABLE "row_counts" ADD CONSTRAINT "row_counts_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payments_company_amount_idx" ON "payments" USING btree ("company_id","amount_paid","id");--> statement-breakpoint
CREATE INDEX "payments_company_reference_idx" ON "payments" USING btree ("company_id","reference_number","id");--> statement-breakpoint
CREATE INDEX "payments_serial_trgm_idx" ON "payments" USING gin ("payment_serial" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "payments_receipt_trgm_idx" ON "payments" USING gin ("receipt_number" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "payments_reference_trgm_idx" ON "payments" USING gin ("reference_number" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "tenants_company_first_name_idx" ON "tenants" USING btree ("company_id","first_name","id");--> statement-breakpoint
CREATE INDEX "tenants_company_last_name_idx" ON "tenants" USING btree ("company_id","last_name","id");--> statement-breakpoint
CREATE INDEX "tenants_first_name_trgm_idx" ON "tenants" USING gin ("first_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "tenants_last_name_trgm_idx" ON "tenants" USING gin ("last_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "tenants_full_name_trgm_idx" ON "tenants" USING gin (("first_name" || ' ' || "last_name") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "tenants_phone_trgm_idx" ON "tenants" USING gin ("phone" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "units_name_trgm_idx" ON "units" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "units_address_trgm_idx" ON "units" USING gin ("address" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "units_description_trgm_idx" ON "units" USING gin ("description" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "expenses_company_date_idx" ON "expenses" USING btree ("company_id","expense_date","id");--> statement-breakpoint
CREATE INDEX "payments_company_date_idx" ON "payments" USING btree ("company_id","payment_date","id");--> statement-breakpoint
CREATE INDEX "payments_company_status_idx" ON "payments" USING btree ("company_id","status","id");