CREATE TABLE "whatsapp_settings" (
	"company_id" integer PRIMARY KEY NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"phone_number_id" varchar(30),
	"credentials" text,
	"callback_key" varchar(64) NOT NULL,
	"verify_token" varchar(64) NOT NULL,
	"language" varchar(10) DEFAULT 'en' NOT NULL,
	"templates" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"fallback_sms" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "whatsapp_settings_callback_key_unique" UNIQUE("callback_key")
);
--> statement-breakpoint
ALTER TABLE "messages" DROP CONSTRAINT "messages_channel_known";--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "external_id" varchar(255);--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "delivery_status" varchar(20);--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "payload" jsonb;--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "notify_whatsapp" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "whatsapp_settings" ADD CONSTRAINT "whatsapp_settings_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "messages_external_idx" ON "messages" USING btree ("company_id","external_id") WHERE "messages"."external_id" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_delivery_status_known" CHECK ("messages"."delivery_status" IN ('sent', 'delivered', 'read', 'failed'));--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_channel_known" CHECK ("messages"."channel" IN ('email', 'sms', 'whatsapp'));