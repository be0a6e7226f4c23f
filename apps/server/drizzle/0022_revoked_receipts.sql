CREATE TABLE "revoked_receipts" (
	"receipt_code" varchar(64) PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"payment_id" integer NOT NULL,
	"receipt_number" varchar(20),
	"deleted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "revoked_receipts" ADD CONSTRAINT "revoked_receipts_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "revoked_receipts_company_idx" ON "revoked_receipts" USING btree ("company_id");