ALTER TABLE "lease_payment_totals" ADD COLUMN "paid_cents" bigint GENERATED ALWAYS AS ((paid * 100)::bigint) STORED;--> statement-breakpoint
ALTER TABLE "occupancy" ADD COLUMN "charge_start_month" integer GENERATED ALWAYS AS ((date_part('year', start_date) * 12 + date_part('month', start_date) - 1)::int) STORED;--> statement-breakpoint
ALTER TABLE "occupancy" ADD COLUMN "charge_day" integer GENERATED ALWAYS AS (date_part('day', start_date)::int) STORED;--> statement-breakpoint
ALTER TABLE "occupancy" ADD COLUMN "charges_to_end" integer GENERATED ALWAYS AS (CASE WHEN end_date IS NULL THEN NULL
               WHEN rent_cycle = 'daily' THEN (end_date - start_date) + 1
               WHEN rent_cycle = 'weekly' THEN (end_date - start_date) / 7 + 1
               ELSE ((date_part('year', end_date) - date_part('year', start_date)) * 12
                     + date_part('month', end_date) - date_part('month', start_date))::int
                    + (date_part('day', end_date) >= date_part('day', start_date)
                       OR date_part('day', end_date + 1) = 1)::int END) STORED;--> statement-breakpoint
ALTER TABLE "occupancy" ADD COLUMN "rate_cents" bigint GENERATED ALWAYS AS ((rate * 100)::bigint) STORED;