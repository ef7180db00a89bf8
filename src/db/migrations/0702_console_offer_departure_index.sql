CREATE INDEX "offers_departure" ON "offers" USING btree ("departure_date","id");
