ALTER TABLE "roles" DROP CONSTRAINT "roles_name_known";--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "owner_id" integer;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_owner_fk" FOREIGN KEY ("company_id","owner_id") REFERENCES "public"."owners"("company_id","id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "users_owner_idx" ON "users" USING btree ("company_id","owner_id");--> statement-breakpoint
ALTER TABLE "roles" ADD CONSTRAINT "roles_name_known" CHECK ("roles"."name" IN ('admin', 'company_admin', 'editor', 'viewer', 'tenant', 'owner'));--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_one_portal_record" CHECK ("users"."tenant_id" IS NULL OR "users"."owner_id" IS NULL);