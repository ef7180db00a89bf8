CREATE INDEX "offers_departure" ON "offers" USING btree ("departure_date","id");

CREATE INDEX "bookings_status_market_created" ON "bookings" USING btree ("status","market_code","created_at","id");
