-- A flight order cancelled at the provider (issue 25): the confirmed cancellation and the airline
-- refund it recorded.
ALTER TABLE "flight_bookings" ADD COLUMN "cancellation" jsonb;
