ALTER TABLE "portal_tokens" DROP CONSTRAINT "portal_tokens_kind_known";--> statement-breakpoint
ALTER TABLE "portal_tokens" ADD COLUMN "address" varchar(255);--> statement-breakpoint
ALTER TABLE "portal_tokens" ADD COLUMN "value" varchar(255);--> statement-breakpoint
ALTER TABLE "portal_tokens" ADD CONSTRAINT "portal_tokens_kind_known" CHECK ("portal_tokens"."kind" IN ('invitation', 'code', 'email_change', 'phone_change'));