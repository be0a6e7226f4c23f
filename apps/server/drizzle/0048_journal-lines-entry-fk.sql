ALTER TABLE "journal_lines" DROP CONSTRAINT "journal_lines_company_id_entry_id_journal_entries_company_id_id_fk";
--> statement-breakpoint
DROP INDEX "journal_lines_entry_idx";--> statement-breakpoint
ALTER TABLE "journal_lines" ADD CONSTRAINT "journal_lines_entry_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."journal_entries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "companies_default_language_list_idx" ON "companies" USING btree ("default_language","id");--> statement-breakpoint
CREATE INDEX "owners_language_list_idx" ON "owners" USING btree ("company_id","language","id");--> statement-breakpoint
CREATE INDEX "tenants_language_list_idx" ON "tenants" USING btree ("company_id","language","id");--> statement-breakpoint
CREATE INDEX "journal_lines_entry_idx" ON "journal_lines" USING btree ("entry_id");--> statement-breakpoint
-- The balance check at commit reads an entry's lines by the entry alone (journal_lines_entry_idx is
-- the one index that leads with it), so that its plan, cached by each connection, cannot become a
-- read of every line of the company (docs/performance.md, "Rent posting: quadratic"); and it checks
-- that every line of the entry is of the entry's company (the foreign key is by the entry's id).
CREATE OR REPLACE FUNCTION books_entry_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  n bigint;
  d numeric;
  c numeric;
  other bigint;
  entry integer := (to_jsonb(NEW) ->> TG_ARGV[0])::int;
BEGIN
  SELECT count(*), coalesce(sum(debit), 0), coalesce(sum(credit), 0), count(*) FILTER (WHERE company_id <> NEW.company_id)
    INTO n, d, c, other
    FROM journal_lines WHERE entry_id = entry;
  IF n < 2 OR d <> c THEN
    RAISE EXCEPTION 'journal entry % does not balance: % lines, debits %, credits %', entry, n, d, c
      USING ERRCODE = 'check_violation', CONSTRAINT = 'journal_entries_balanced';
  END IF;
  IF other > 0 THEN
    RAISE EXCEPTION 'journal entry % has lines of another company', entry
      USING ERRCODE = 'check_violation', CONSTRAINT = 'journal_entries_balanced';
  END IF;
  RETURN NULL;
END $$;
