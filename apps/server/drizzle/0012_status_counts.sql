CREATE TABLE "status_counts" (
	"company_id" integer NOT NULL,
	"table_name" varchar(63) NOT NULL,
	"status" varchar(20) NOT NULL,
	"n" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "status_counts_company_id_table_name_status_pk" PRIMARY KEY("company_id","table_name","status")
);
--> statement-breakpoint
ALTER TABLE "status_counts" ADD CONSTRAINT "status_counts_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;