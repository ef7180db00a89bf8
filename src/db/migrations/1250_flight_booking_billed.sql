-- Issue 29: Duffel bills in the organisation's currency, the booking sells in the market's. A
-- booked leg records both: total_price/currency in the market's currency (what the customer's
-- price was built on), billed_total/billed_currency what the provider charged, when it differs.
ALTER TABLE "flight_bookings" ADD COLUMN "billed_total" numeric(12, 2);
ALTER TABLE "flight_bookings" ADD COLUMN "billed_currency" varchar(3);
