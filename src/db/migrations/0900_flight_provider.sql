-- Duffel orders need each passenger's title and gender (required at the traveler step only when
-- the configured flight provider asks for them), and the leg job records when it started to book
-- a leg (an order may exist after a time-out or crash) and how many unclassified exceptions it
-- met (the spec's "max exceptions 2", apart from tries).
ALTER TABLE "passengers" ADD COLUMN "title" varchar(4);
ALTER TABLE "passengers" ADD COLUMN "gender" varchar(1);
ALTER TABLE "flight_leg_attempts" ADD COLUMN "booking_started_at" timestamp with time zone;
ALTER TABLE "flight_leg_attempts" ADD COLUMN "exception_count" integer DEFAULT 0 NOT NULL;
-- the fares an admin searched for a leg that could not be matched (re-booking picks one of them)
ALTER TABLE "flight_leg_attempts" ADD COLUMN "rebook_search" jsonb;
