CREATE TABLE "books_state" (
	"company_id" integer PRIMARY KEY NOT NULL,
	"history_posted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lease_rent_posted" (
	"company_id" integer NOT NULL,
	"occupancy_id" integer NOT NULL,
	"due_date" date NOT NULL,
	"amount" numeric(14, 2) NOT NULL,
	"adjustments" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "lease_rent_posted_company_id_occupancy_id_due_date_pk" PRIMARY KEY("company_id","occupancy_id","due_date")
);
--> statement-breakpoint
CREATE TABLE "lease_rent_state" (
	"company_id" integer NOT NULL,
	"occupancy_id" integer NOT NULL,
	"terms" text NOT NULL,
	"through" date NOT NULL,
	"opening_date" date,
	"opening_amount" numeric(14, 2) DEFAULT '0' NOT NULL,
	"opening_adjustments" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "lease_rent_state_company_id_occupancy_id_pk" PRIMARY KEY("company_id","occupancy_id")
);
--> statement-breakpoint
ALTER TABLE "books_state" ADD CONSTRAINT "books_state_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lease_rent_posted" ADD CONSTRAINT "lease_rent_posted_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lease_rent_state" ADD CONSTRAINT "lease_rent_state_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;