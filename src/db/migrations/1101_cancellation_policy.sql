-- The cancellation policy of a market product (issue 25): {days_before_departure, fee_percent}
-- steps; null uses the configured default (CANCELLATION_POLICY).
ALTER TABLE "market_products" ADD COLUMN "cancellation_policy" jsonb;
