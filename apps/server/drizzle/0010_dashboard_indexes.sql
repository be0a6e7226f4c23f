DROP INDEX "maintenance_requests_company_status_idx";--> statement-breakpoint
DROP INDEX "units_company_status_idx";--> statement-breakpoint
CREATE INDEX "maintenance_requests_company_status_idx" ON "maintenance_requests" USING btree ("company_id","status","request_date","id");--> statement-breakpoint
CREATE INDEX "units_company_status_idx" ON "units" USING btree ("company_id","status","name","id");