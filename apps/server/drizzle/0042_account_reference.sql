ALTER TABLE "occupancy" ADD COLUMN "account_reference" varchar(20);--> statement-breakpoint
-- issue 29: every lease gets its account number, made from its unit's name (letters and digits,
-- upper-case); where several leases share one, the current lease keeps it plain and the others get
-- '-2', '-3', ... (a made number never has a dash before its suffix, so none can clash)
WITH made AS (
  SELECT company_id, id,
         COALESCE(NULLIF(left(upper(regexp_replace(COALESCE(unit_name, ''), '[^A-Za-z0-9]', '', 'g')), 16), ''), 'L') AS base,
         row_number() OVER (
           PARTITION BY company_id,
                        COALESCE(NULLIF(left(upper(regexp_replace(COALESCE(unit_name, ''), '[^A-Za-z0-9]', '', 'g')), 16), ''), 'L')
           ORDER BY (is_active AND occupancy_status <> 'terminated') DESC, start_date DESC, id DESC) AS n
    FROM occupancy)
UPDATE occupancy o
   SET account_reference = CASE WHEN made.n = 1 THEN made.base ELSE made.base || '-' || made.n END
  FROM made
 WHERE o.company_id = made.company_id AND o.id = made.id;--> statement-breakpoint
ALTER TABLE "occupancy" ADD CONSTRAINT "occupancy_account_reference_key" UNIQUE("company_id","account_reference");
