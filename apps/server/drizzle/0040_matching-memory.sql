CREATE TABLE "match_memory" (
	"company_id" integer NOT NULL,
	"kind" varchar(10) NOT NULL,
	"key" varchar(300) NOT NULL,
	"occupancy_id" integer NOT NULL,
	"line_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "match_memory_company_id_kind_key_pk" PRIMARY KEY("company_id","kind","key"),
	CONSTRAINT "match_memory_kind_known" CHECK ("match_memory"."kind" IN ('phone', 'reference'))
);
--> statement-breakpoint
ALTER TABLE "statement_lines" ADD COLUMN "match_reason" varchar(300);--> statement-breakpoint
ALTER TABLE "match_memory" ADD CONSTRAINT "match_memory_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "match_memory" ADD CONSTRAINT "match_memory_company_id_occupancy_id_occupancy_company_id_id_fk" FOREIGN KEY ("company_id","occupancy_id") REFERENCES "public"."occupancy"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "match_memory_occupancy_idx" ON "match_memory" USING btree ("company_id","occupancy_id");