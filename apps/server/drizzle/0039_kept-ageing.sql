CREATE TABLE "lease_debit_days" (
	"company_id" integer NOT NULL,
	"occupancy_id" integer NOT NULL,
	"day" date NOT NULL,
	"amount" numeric(18, 2) DEFAULT '0' NOT NULL,
	"open" numeric(18, 2) DEFAULT '0' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "lease_debit_days_company_id_occupancy_id_day_pk" PRIMARY KEY("company_id","occupancy_id","day")
);
--> statement-breakpoint
ALTER TABLE "lease_balances" ADD COLUMN "oldest_due" date;--> statement-breakpoint
ALTER TABLE "lease_debit_days" ADD CONSTRAINT "lease_debit_days_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "lease_balances_oldest_due_idx" ON "lease_balances" USING btree ("company_id","oldest_due") WHERE "lease_balances"."oldest_due" IS NOT NULL;--> statement-breakpoint
-- The kept ageing of what is posted already (docs/decisions.md, "Kept ageing"): each lease's debits
-- by the day they age from, from what books.post wrote (the rent per period, the opening balance
-- owed, the charges and late fees posted less their waivers posted) ...
INSERT INTO "lease_debit_days" ("company_id", "occupancy_id", "day", "amount")
SELECT x.company_id, x.occupancy_id, x.day, sum(x.amount) FROM (
  SELECT p.company_id, p.occupancy_id, p.due_date AS day, p.amount FROM "lease_rent_posted" p
  UNION ALL
  SELECT s.company_id, s.occupancy_id, s.opening_date, s.opening_amount FROM "lease_rent_state" s
   WHERE s.opening_date IS NOT NULL AND s.opening_amount > 0
  UNION ALL
  SELECT c.company_id, c.occupancy_id, c.date, c.amount FROM "charges" c
   WHERE EXISTS (SELECT 1 FROM "journal_entries" e WHERE e.company_id = c.company_id
                    AND e.source IN ('charge', 'late_fee') AND e.source_id = c.id)
  UNION ALL
  SELECT w.company_id, w.occupancy_id, c.date, -w.amount FROM "charge_waivers" w
    JOIN "charges" c ON c.company_id = w.company_id AND c.id = w.charge_id
   WHERE EXISTS (SELECT 1 FROM "journal_entries" e WHERE e.company_id = w.company_id
                    AND e.source = 'waiver' AND e.source_id = w.id)
) x
GROUP BY x.company_id, x.occupancy_id, x.day;
--> statement-breakpoint
-- ... what of them is unpaid: the receivable on the newest days first ...
UPDATE "lease_debit_days" d SET "open" = a.open
  FROM (
    SELECT d.company_id, d.occupancy_id, d.day,
           LEAST(GREATEST(d.amount, 0), GREATEST(0, b.receivable - COALESCE(sum(GREATEST(d.amount, 0)) OVER (
             PARTITION BY d.company_id, d.occupancy_id ORDER BY d.day DESC
             ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0))) AS open
      FROM "lease_debit_days" d
      JOIN "lease_balances" b ON b.company_id = d.company_id AND b.occupancy_id = d.occupancy_id
  ) a
 WHERE a.company_id = d.company_id AND a.occupancy_id = d.occupancy_id AND a.day = d.day AND a.open <> 0;
--> statement-breakpoint
-- ... and the oldest unpaid day of each lease.
UPDATE "lease_balances" b SET "oldest_due" = o.day
  FROM (SELECT company_id, occupancy_id, min(day) AS day FROM "lease_debit_days" WHERE "open" > 0
         GROUP BY company_id, occupancy_id) o
 WHERE o.company_id = b.company_id AND o.occupancy_id = b.occupancy_id;
