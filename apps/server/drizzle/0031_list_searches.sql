ALTER TABLE "messages" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower(COALESCE("to", '') || E'\x1f' || COALESCE(tenant_name, '') || E'\x1f' || COALESCE(subject, ''))) STORED;--> statement-breakpoint
ALTER TABLE "statement_lines" ADD COLUMN "lease_tenant_name" text;--> statement-breakpoint
ALTER TABLE "statement_lines" ADD COLUMN "lease_unit_name" text;--> statement-breakpoint
ALTER TABLE "statement_lines" ADD COLUMN "tenant_name" text;--> statement-breakpoint
ALTER TABLE "statement_lines" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower(COALESCE(transaction_id, '') || E'\x1f' || COALESCE(payer_phone, '') || E'\x1f' || COALESCE(payer_name, '') || E'\x1f' || COALESCE(reference, '') || E'\x1f' || COALESCE(COALESCE(lease_tenant_name, tenant_name), '') || E'\x1f' || COALESCE(lease_unit_name, ''))) STORED;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower(COALESCE(email, ''))) STORED;--> statement-breakpoint
CREATE INDEX "messages_search_trgm_idx" ON "messages" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "statement_lines_search_trgm_idx" ON "statement_lines" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_search_trgm_idx" ON "users" USING gin ("search_text" gin_trgm_ops);