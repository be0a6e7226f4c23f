ALTER TABLE "audit_entries" DROP CONSTRAINT "audit_entries_action_known";--> statement-breakpoint
ALTER TABLE "audit_entries" ALTER COLUMN "action" SET DATA TYPE varchar(20);--> statement-breakpoint
ALTER TABLE "audit_entries" ADD COLUMN "summary" varchar(300) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_entries" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower(entity || ' ' || action || ' ' || record_id::text || ' ' || summary)) STORED;--> statement-breakpoint
CREATE INDEX "audit_entries_log_idx" ON "audit_entries" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "audit_entries_action_idx" ON "audit_entries" USING btree ("company_id","action","created_at");--> statement-breakpoint
CREATE INDEX "audit_entries_company_user_idx" ON "audit_entries" USING btree ("company_id","user_id","created_at");--> statement-breakpoint
CREATE INDEX "audit_entries_search_trgm_idx" ON "audit_entries" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
ALTER TABLE "audit_entries" ADD CONSTRAINT "audit_entries_action_known" CHECK ("audit_entries"."action" IN ('create', 'update', 'delete', 'sign_in', 'sign_in_failed', 'access', 'match', 'ignore', 'unmatch', 'webhook', 'import'));