CREATE TABLE "key_counts" (
	"company_id" integer NOT NULL,
	"table_name" varchar(63) NOT NULL,
	"key_name" varchar(63) NOT NULL,
	"key_value" integer NOT NULL,
	"n" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "key_counts_company_id_table_name_key_name_key_value_pk" PRIMARY KEY("company_id","table_name","key_name","key_value")
);
--> statement-breakpoint
CREATE TABLE "monthly_totals" (
	"company_id" integer NOT NULL,
	"source" varchar(63) NOT NULL,
	"month" date NOT NULL,
	"status" varchar(20) DEFAULT '' NOT NULL,
	"key" varchar(20) DEFAULT '' NOT NULL,
	"n" bigint DEFAULT 0 NOT NULL,
	"amount" numeric(20, 2) DEFAULT '0' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "monthly_totals_company_id_source_month_status_key_pk" PRIMARY KEY("company_id","source","month","status","key")
);
--> statement-breakpoint
ALTER TABLE "key_counts" ADD CONSTRAINT "key_counts_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monthly_totals" ADD CONSTRAINT "monthly_totals_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;