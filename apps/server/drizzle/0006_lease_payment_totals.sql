CREATE TABLE "lease_payment_totals" (
	"company_id" integer NOT NULL,
	"occupancy_id" integer NOT NULL,
	"paid" numeric(20, 2) DEFAULT '0' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "lease_payment_totals_company_id_occupancy_id_pk" PRIMARY KEY("company_id","occupancy_id")
);
--> statement-breakpoint
ALTER TABLE "lease_payment_totals" ADD CONSTRAINT "lease_payment_totals_occupancy_fk" FOREIGN KEY ("company_id","occupancy_id") REFERENCES "public"."occupancy"("company_id","id") ON DELETE cascade ON UPDATE no action;