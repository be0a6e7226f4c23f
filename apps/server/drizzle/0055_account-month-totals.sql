CREATE TABLE "account_month_totals" (
	"company_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"month" date NOT NULL,
	"source" varchar(30) NOT NULL,
	"property_id" integer DEFAULT 0 NOT NULL,
	"debit" numeric(18, 2) DEFAULT '0' NOT NULL,
	"credit" numeric(18, 2) DEFAULT '0' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "account_month_totals_pk" PRIMARY KEY("company_id","account_id","month","property_id","source")
);
--> statement-breakpoint
ALTER TABLE "account_month_totals" ADD CONSTRAINT "account_month_totals_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- The month totals of what is posted already (docs/decisions.md, "Month totals"): the journal's lines
-- by account, month, their property (0: none) and their entry's source; books.post keeps them since.
INSERT INTO "account_month_totals" ("company_id", "account_id", "month", "property_id", "source", "debit", "credit")
SELECT l.company_id, l.account_id, date_trunc('month', l.date)::date, coalesce(l.property_id, 0), e.source,
       sum(l.debit), sum(l.credit)
  FROM "journal_lines" l
  JOIN "journal_entries" e ON e.company_id = l.company_id AND e.id = l.entry_id
 GROUP BY 1, 2, 3, 4, 5;
