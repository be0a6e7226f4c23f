ALTER TABLE "imports" ADD COLUMN "back_rent" jsonb;--> statement-breakpoint
ALTER TABLE "occupancy" ADD COLUMN "opening_balance" numeric(14, 2);--> statement-breakpoint
ALTER TABLE "occupancy" ADD COLUMN "opening_balance_date" date;--> statement-breakpoint
ALTER TABLE "occupancy" ADD COLUMN "opening_cents" bigint GENERATED ALWAYS AS ((COALESCE(opening_balance, 0) * 100)::bigint) STORED;--> statement-breakpoint
ALTER TABLE "occupancy" ADD COLUMN "charges_to_opening" integer GENERATED ALWAYS AS (CASE WHEN opening_balance_date IS NULL OR opening_balance_date < start_date THEN 0
               WHEN rent_cycle = 'daily' THEN (LEAST(opening_balance_date, end_date) - start_date) + 1
               WHEN rent_cycle = 'weekly' THEN (LEAST(opening_balance_date, end_date) - start_date) / 7 + 1
               ELSE ((date_part('year', LEAST(opening_balance_date, end_date)) - date_part('year', start_date)) * 12
                     + date_part('month', LEAST(opening_balance_date, end_date)) - date_part('month', start_date))::int
                    + (date_part('day', LEAST(opening_balance_date, end_date)) >= date_part('day', start_date)
                       OR date_part('day', LEAST(opening_balance_date, end_date) + 1) = 1)::int END) STORED;