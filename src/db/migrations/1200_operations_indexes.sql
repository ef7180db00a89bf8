-- The operations console (issue 28): sold bookings per departure and per day, money taken per day.
CREATE INDEX "bookings_offer_sold" ON "bookings" USING btree ("offer_id","total_price") WHERE status NOT IN ('checkout', 'abandoned');

CREATE INDEX "bookings_created_sold" ON "bookings" USING btree ("created_at","market_code","currency","total_price","offer_id") WHERE status NOT IN ('checkout', 'abandoned');

CREATE INDEX "booking_payments_taken" ON "booking_payments" USING btree (coalesce("finalized_at", "created_at")) WHERE status = 'Succeeded';
