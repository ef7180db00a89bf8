-- Issue 26: the sign-in limit per account counts failed attempts only (reset by a correct one) and
-- slows the account down with a growing delay instead of refusing its password for 15 minutes. The
-- count lives with the account, in the database, so it holds across processes and while Redis is down.
ALTER TABLE "admin_users" ADD COLUMN "failed_sign_ins" integer DEFAULT 0 NOT NULL;
ALTER TABLE "admin_users" ADD COLUMN "last_failed_sign_in_at" timestamp with time zone;
