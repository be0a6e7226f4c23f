-- The books' rules, kept by the database itself (docs/decisions.md, "Books core (issue 25)").
-- 1. Every entry balances (Σ debit = Σ credit) and has at least two lines: checked at commit by
--    deferred constraint triggers, so that an entry and its lines may be written in any order.
CREATE OR REPLACE FUNCTION books_entry_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  n bigint;
  d numeric;
  c numeric;
  entry integer := (to_jsonb(NEW) ->> TG_ARGV[0])::int;
BEGIN
  SELECT count(*), coalesce(sum(debit), 0), coalesce(sum(credit), 0) INTO n, d, c
    FROM journal_lines WHERE company_id = NEW.company_id AND entry_id = entry;
  IF n < 2 OR d <> c THEN
    RAISE EXCEPTION 'journal entry % does not balance: % lines, debits %, credits %', entry, n, d, c
      USING ERRCODE = 'check_violation', CONSTRAINT = 'journal_entries_balanced';
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER journal_lines_balanced AFTER INSERT ON journal_lines
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION books_entry_balanced('entry_id');
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER journal_entries_balanced AFTER INSERT ON journal_entries
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION books_entry_balanced('id');
--> statement-breakpoint
-- 2. Posted entries never change: no UPDATE, no DELETE, except when the company itself is deleted
--    (its row is gone when the cascade reaches them) or the session says `kodi.purge` = 'on'.
CREATE OR REPLACE FUNCTION books_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND (coalesce(current_setting('kodi.purge', true), '') = 'on'
      OR NOT EXISTS (SELECT 1 FROM companies WHERE id = OLD.company_id)) THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'posted journal entries never change (% of %)', TG_OP, TG_TABLE_NAME
    USING ERRCODE = 'object_not_in_prerequisite_state';
END $$;
--> statement-breakpoint
CREATE TRIGGER journal_entries_immutable BEFORE UPDATE OR DELETE ON journal_entries
  FOR EACH ROW EXECUTE FUNCTION books_immutable();
--> statement-breakpoint
CREATE TRIGGER journal_lines_immutable BEFORE UPDATE OR DELETE ON journal_lines
  FOR EACH ROW EXECUTE FUNCTION books_immutable();
--> statement-breakpoint
-- 3. The default chart of accounts, for every company however it is created, and for those there are.
CREATE OR REPLACE FUNCTION books_default_chart(company integer) RETURNS void LANGUAGE sql AS $$
  INSERT INTO ledger_accounts (company_id, code, name, type, role)
  SELECT company, a.code, a.name, a.type, a.role FROM (VALUES
    ('1000', 'Cash on hand', 'asset', 'cash'),
    ('1010', 'Mobile money', 'asset', 'mobile_money'),
    ('1020', 'Bank', 'asset', 'bank'),
    ('1030', 'Card clearing', 'asset', 'card_clearing'),
    ('1100', 'Accounts receivable (tenants)', 'asset', 'receivable'),
    ('2000', 'Tenant credits', 'liability', 'tenant_credits'),
    ('2100', 'Security deposits held', 'liability', 'deposits_held'),
    ('3000', 'Opening balances', 'equity', 'opening_balances'),
    ('3100', 'Retained earnings', 'equity', 'retained_earnings'),
    ('4000', 'Rental income', 'income', 'rental_income'),
    ('4100', 'Late fee income', 'income', 'late_fee_income'),
    ('4200', 'Other charges income – Utility', 'income', 'charge_income:utility'),
    ('4210', 'Other charges income – Damage', 'income', 'charge_income:damage'),
    ('4220', 'Other charges income – Other', 'income', 'charge_income:other'),
    ('5000', 'Plumbing', 'expense', 'expense:plumbing'),
    ('5010', 'Fixes', 'expense', 'expense:fixes'),
    ('5020', 'Fittings', 'expense', 'expense:fittings'),
    ('5030', 'Electrical', 'expense', 'expense:electrical'),
    ('5040', 'Cleaning', 'expense', 'expense:cleaning'),
    ('5050', 'Repairs', 'expense', 'expense:repairs'),
    ('5060', 'Condominium fees', 'expense', 'expense:condo_fees'),
    ('5070', 'Other expenses', 'expense', 'expense:other'),
    ('5900', 'Wages', 'expense', 'wages')
  ) AS a (code, name, type, role)
  ON CONFLICT DO NOTHING;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION books_company_created() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM books_default_chart(NEW.id);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER companies_default_chart AFTER INSERT ON companies
  FOR EACH ROW EXECUTE FUNCTION books_company_created();
--> statement-breakpoint
SELECT books_default_chart(id) FROM companies;
--> statement-breakpoint
UPDATE expenses e SET paid_from_account_id = a.id
  FROM ledger_accounts a
 WHERE a.company_id = e.company_id AND a.role = 'cash' AND e.paid_from_account_id IS NULL;
