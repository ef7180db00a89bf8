CREATE INDEX "bookings_created" ON "bookings" USING btree ("created_at","id");

CREATE INDEX "bookings_status_created" ON "bookings" USING btree ("status","created_at","id");

CREATE INDEX "bookings_market_created" ON "bookings" USING btree ("market_code","created_at","id");

CREATE INDEX "bookings_client" ON "bookings" USING btree ("client_id");

CREATE INDEX "bookings_reference_prefix" ON "bookings" USING btree ("reference" text_pattern_ops);

CREATE INDEX "clients_email_prefix" ON "clients" USING btree (lower("email") text_pattern_ops);

CREATE INDEX "clients_last_name_prefix" ON "clients" USING btree (lower("last_name") text_pattern_ops);

CREATE INDEX "clients_full_name_prefix" ON "clients" USING btree (lower("first_name" || ' ' || "last_name") text_pattern_ops);
